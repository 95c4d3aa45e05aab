package dev.vigil.embedded.postgres;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Run in a child JVM by {@link LeftoverServerIT}: starts the embedded server on the given data directory and port,
 * writes a row the test looks for after the take-over, prints {@code READY} and waits to be killed.
 */
public final class LeftoverServerChild {
    private LeftoverServerChild() {}

    public static void main(String[] args) throws Exception {
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .dataDir(Path.of(args[0]))
                .port(Integer.parseInt(args[1]))
                // "owner-stops": an application that stops the server itself, last, on its own exit
                .stopOnJvmExit(!(args.length > 2 && args[2].equals("owner-stops")))
                .start();
        Sql.update(pg.connectionFactory(), "CREATE TABLE IF NOT EXISTS kept (v text)");
        Sql.update(pg.connectionFactory(), "INSERT INTO kept VALUES ('written before the kill')");
        System.out.println("READY");
        System.out.flush();
        // until the test kills this JVM
        new CountDownLatch(1).await();
    }
}
