package dev.vigil.notifier.support;

import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;

/** A notifier in a process of its own, so a test can kill it with SIGKILL. Argument: a JSON NotifierConfig file. */
public final class ChildNotifier {
    private ChildNotifier() {}

    public static void main(String[] args) throws Exception {
        NotifierConfig cfg = Json.read(Files.readAllBytes(Path.of(args[0])), NotifierConfig.class);
        NotifierService.Running running = NotifierService.start(cfg, System.getenv());
        System.out.println("CHILD-STARTED " + running.instance());
        System.out.flush();
        Thread.currentThread().join();
    }
}
