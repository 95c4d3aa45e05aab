package dev.vigil.embedded.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PostgresUrlTest {
    private static final PostgresUrl EXPECTED = new PostgresUrl("db.example", 6543, "vigil", "vigil_app", "s3cret");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "postgresql://vigil_app:s3cret@db.example:6543/vigil",
                "postgres://vigil_app:s3cret@db.example:6543/vigil",
                "r2dbc:postgresql://vigil_app:s3cret@db.example:6543/vigil",
                "jdbc:postgresql://db.example:6543/vigil?user=vigil_app&password=s3cret",
                "JDBC:postgresql://vigil_app:s3cret@db.example:6543/vigil",
                "  postgresql://db.example:6543/vigil?password=s3cret&user=vigil_app  "
            })
    void acceptsThePlainR2dbcAndJdbcForms(String url) {
        assertThat(PostgresUrl.parse(url)).isEqualTo(EXPECTED);
    }

    @Test
    void defaultsPortAndDatabase() {
        assertThat(PostgresUrl.parse("postgresql://me@localhost"))
                .isEqualTo(new PostgresUrl("localhost", 5432, "postgres", "me", null));
    }

    @Test
    void decodesPercentEncodedCredentialsAndRoundTrips() {
        PostgresUrl url = PostgresUrl.parse("postgresql://us%40er:p%3Ass%2Fw%25rd%C3%A9@[::1]:5433/db");

        assertThat(url).isEqualTo(new PostgresUrl("::1", 5433, "db", "us@er", "p:ss/w%rdé"));
        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:5433/db");
        assertThat(PostgresUrl.parse(url.toUrlString())).isEqualTo(url);
    }

    @Test
    void toStringAndErrorsNeverShowThePassword() {
        assertThat(EXPECTED.toString())
                .isEqualTo("postgresql://vigil_app:***@db.example:6543/vigil")
                .doesNotContain("s3cret");
        assertThatThrownBy(() -> PostgresUrl.parse("postgresql://u:s3cret@host/db?sslmode=require"))
                .hasMessageContaining("'sslmode' is not supported")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> PostgresUrl.parse("jdbc:postgresql://host/db?password=s3cret&ssl=true"))
                .hasMessageNotContaining("s3cret");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "mysql://u:p@host/db",
                "postgresql://host:5432/db",
                "postgresql:///db?user=u",
                "postgresql://u:p%zz@host/db",
                "host:5432/db"
            })
    void rejectsWhatItCannotUseWithAClearMessage(String url) {
        assertThatThrownBy(() -> PostgresUrl.parse(url))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid PostgreSQL URL");
    }

    @Test
    void withDatabaseKeepsServerAndCredentials() {
        assertThat(EXPECTED.withDatabase("other"))
                .isEqualTo(new PostgresUrl("db.example", 6543, "other", "vigil_app", "s3cret"));
    }
}
