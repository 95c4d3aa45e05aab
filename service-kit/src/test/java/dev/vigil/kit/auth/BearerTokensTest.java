package dev.vigil.kit.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokensTest {
    @TempDir
    Path dir;

    @Test
    void authenticatesByHashAndCarriesNameAndScopes() {
        String alice = BearerTokens.generate();
        String bob = BearerTokens.generate();
        BearerTokens tokens = BearerTokens.of(
                List.of(
                        new TokenSpec("alice", BearerTokens.hash(alice), List.of("read", "silence")),
                        new TokenSpec("bob", BearerTokens.hash(bob), List.of("ADMIN"))),
                "instance-secret");
        Principal a = tokens.authenticate("Bearer " + alice).orElseThrow();
        assertThat(a.name()).isEqualTo("alice");
        assertThat(a.may(Scope.SILENCE)).isTrue();
        assertThat(a.may(Scope.ACK)).isFalse();
        assertThat(a.may(Scope.ADMIN)).isFalse();
        assertThat(a.instance()).isFalse();
        assertThat(tokens.authenticate("bearer " + bob).orElseThrow().may(Scope.ACK))
                .isTrue();
        assertThat(tokens.authenticate("Bearer instance-secret").orElseThrow().instance())
                .isTrue();
        assertThat(tokens.authenticate("Bearer instance-secret").orElseThrow().may(Scope.SILENCE))
                .isFalse();
        assertThat(tokens.authenticate(null)).isEmpty();
        assertThat(tokens.authenticate("Basic " + alice)).isEmpty();
        assertThat(tokens.authenticate("Bearer " + alice + "x")).isEmpty();
        assertThat(tokens.authenticate("Bearer " + BearerTokens.hash(alice)))
                .as("the hash is not the token")
                .isEmpty();
        assertThat(tokens.authenticate("Bearer " + "a".repeat(600))).isEmpty();
        assertThat(tokens.authenticate("Bearer ")).isEmpty();
    }

    @Test
    void badSpecsAreRefusedWithTheirPath() {
        assertThat(new TokenSpec("ok", "zz", List.of("read", "root")).problems("auth.tokens[0]"))
                .containsExactly(
                        "auth.tokens[0].sha256: must be the 64-character lower-case hex SHA-256 of the token (vigil token hash)",
                        "auth.tokens[0].scopes[1]: unknown scope 'root'; expected read, silence, ack, monitors, rules or admin");
        String h = BearerTokens.hash("x");
        assertThatThrownBy(() -> BearerTokens.of(
                        List.of(
                                new TokenSpec("a", h, List.of("read")),
                                new TokenSpec("a", BearerTokens.hash("y"), List.of("read"))),
                        null))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> BearerTokens.of(List.of(new TokenSpec("vigil-instance", h, List.of("read"))), null))
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> BearerTokens.of(
                        List.of(new TokenSpec("a", h, List.of("read")), new TokenSpec("b", h, List.of("admin"))), null))
                .hasMessageContaining("same hash");
        assertThatThrownBy(() -> BearerTokens.of(List.of(new TokenSpec("a", h, List.of("read"))), "x"))
                .hasMessageContaining("instance credential");
    }

    @Test
    void generatedTokensAreLongAndDistinct() {
        String t = BearerTokens.generate();
        assertThat(t).startsWith("vgl_").hasSize(47);
        assertThat(BearerTokens.generate()).isNotEqualTo(t);
    }

    @Test
    void secretFilesAreCreatedExclusivelyOwnerOnlyAndNeverThroughALink() throws Exception {
        Path file = dir.resolve("config/admin-token");
        assertThat(SecretFiles.readOrCreate(file, "first")).isEqualTo("first");
        assertThat(SecretFiles.readOrCreate(file, "second"))
                .as("an existing secret is kept")
                .isEqualTo("first");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        Path target = dir.resolve("elsewhere");
        Path link = dir.resolve("config/link-token");
        Files.createSymbolicLink(link, target);
        assertThatThrownBy(() -> SecretFiles.readOrCreate(link, "x")).hasMessageContaining("not a regular file");
        assertThat(Files.exists(target)).as("nothing written through the link").isFalse();
        assertThatThrownBy(() -> SecretFiles.write(file, "again"))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
        Path loose = dir.resolve("config/loose-token");
        Files.writeString(loose, "planted\n");
        Files.setPosixFilePermissions(loose, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> SecretFiles.read(loose))
                .hasMessageContaining("other users")
                .hasMessageContaining("chmod 600");
    }
}
