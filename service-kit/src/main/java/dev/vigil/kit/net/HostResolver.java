package dev.vigil.kit.net;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Resolves a hostname to every address it has. Errors with {@link java.net.UnknownHostException} when it has none. */
@FunctionalInterface
public interface HostResolver {
    Mono<List<InetAddress>> resolve(String host);

    /** The JDK resolver (OS configuration, caches), off the event loop on the bounded elastic scheduler. */
    static HostResolver system() {
        return host -> Mono.fromCallable(() -> Arrays.asList(InetAddress.getAllByName(host)))
                .subscribeOn(Schedulers.boundedElastic());
    }
}
