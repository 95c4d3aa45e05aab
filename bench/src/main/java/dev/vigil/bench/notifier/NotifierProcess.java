package dev.vigil.bench.notifier;

import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A notifier in a process of its own, so {@link NotifierKillBench} can kill it with SIGKILL. Argument: a JSON
 * {@link NotifierConfig} file; secrets come from the environment as in production.
 */
public final class NotifierProcess {
    static final String STARTED = "NOTIFIER-STARTED";

    private NotifierProcess() {}

    public static void main(String[] args) throws Exception {
        NotifierConfig cfg = Json.read(Files.readAllBytes(Path.of(args[0])), NotifierConfig.class);
        NotifierService.Running running = NotifierService.start(cfg, System.getenv());
        System.out.println(STARTED + " " + running.instance());
        System.out.flush();
        Thread.currentThread().join();
    }
}
