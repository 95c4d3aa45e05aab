package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MonitorsCommandTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "https://ingest.example.com   | kafka.example.com:9092            | https://ingest.example.com",
                "https://ingest.example.com/  | localhost:9092                    | https://ingest.example.com",
                "http://10.0.0.5:8080         | 127.0.0.1:9092                    | http://10.0.0.5:8080",
                "-                            | localhost:9092                    | http://127.0.0.1:8080",
                "-                            | 127.0.0.1:9092,[::1]:9093         | http://127.0.0.1:8080",
                "-                            | kafka.example.com:9092            | -",
                "-                            | localhost:9092,kafka-2:9092       | -"
            })
    void theIngestBaseIsTheOptionElseTheStandalonesForALoopbackKafkaElseUnknown(
            String option, String kafka, String base) {
        assertThat(MonitorsCommand.ingestBase("-".equals(option) ? null : option, kafka))
                .isEqualTo("-".equals(base) ? null : base);
    }

    @ParameterizedTest
    @CsvSource({"ingest.example.com", "ftp://ingest.example.com", "https://ingest.example.com/?x=1"})
    void anIngestUrlMustBeAnHttpBaseUrl(String option) {
        assertThatThrownBy(() -> MonitorsCommand.ingestBase(option, "localhost:9092"))
                .hasMessageContaining("--ingest-url");
    }
}
