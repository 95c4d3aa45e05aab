package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PasswordFileTest {
    @TempDir
    Path dir;

    @Test
    void generatedPasswordsAreLongRandomAndNeedNoEscaping() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String password = PasswordFile.generate();
            assertThat(password).hasSizeGreaterThanOrEqualTo(24).matches("[A-Za-z0-9]+");
            seen.add(password);
        }
        assertThat(seen).hasSize(200);
    }

    @Test
    void createsAnOwnerOnlyFileAndReadsItBack() throws Exception {
        Path file = PasswordFile.in(dir);
        PasswordFile.create(file, "s3cretS3cretS3cretS3cretS3cret00");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(PasswordFile.read(file)).contains("s3cretS3cretS3cretS3cretS3cret00");
    }

    @Test
    void neverOverwritesAnExistingFile() throws Exception {
        Path file = PasswordFile.in(dir);
        PasswordFile.create(file, "first-first-first-first-first-1");

        assertThatThrownBy(() -> PasswordFile.create(file, "second-second-second-second-22"))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(PasswordFile.read(file)).contains("first-first-first-first-first-1");
    }

    @Test
    void neverWritesThroughAPlantedSymlinkEvenADanglingOne() throws Exception {
        Path target = dir.resolve("elsewhere");
        Path file = PasswordFile.in(dir);
        Files.createSymbolicLink(file, target);

        assertThatThrownBy(() -> PasswordFile.create(file, "abcdefghijklmnopqrstuvwxyz012345"))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(target).doesNotExist();
    }

    @Test
    void refusesToReadThroughASymlink() throws Exception {
        Path real = dir.resolve("real");
        PasswordFile.create(real, "abcdefghijklmnopqrstuvwxyz012345");
        Path file = PasswordFile.in(dir);
        Files.createSymbolicLink(file, real);

        assertThatThrownBy(() -> PasswordFile.read(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a symlink")
                .hasMessageNotContaining("abcdefghijklmnopqrstuvwxyz012345");
    }

    @Test
    void refusesAFileOthersMayRead() throws Exception {
        Path file = PasswordFile.in(dir);
        PasswordFile.create(file, "abcdefghijklmnopqrstuvwxyz012345");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> PasswordFile.read(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("chmod 600")
                .hasMessageNotContaining("abcdefghijklmnopqrstuvwxyz012345");
    }

    @Test
    void aMissingFileIsEmpty() {
        assertThat(PasswordFile.read(PasswordFile.in(dir))).isEmpty();
        assertThat(Files.exists(PasswordFile.in(dir), LinkOption.NOFOLLOW_LINKS))
                .isFalse();
    }
}
