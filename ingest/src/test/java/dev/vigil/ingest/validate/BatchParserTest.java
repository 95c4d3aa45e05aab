package dev.vigil.ingest.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.http.HttpProblem;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BatchParserTest {
    private final BatchParser parser = new BatchParser(3);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static HttpProblem problem(Runnable r) {
        try {
            r.run();
        } catch (HttpProblem p) {
            return p;
        }
        throw new AssertionError("no problem raised");
    }

    @Test
    void readsAJsonArray() {
        assertThat(parser.jsonArray(b("[{\"a\":1},2,\"x\"]"))).hasSize(3);
    }

    @Test
    void readsNdjsonSkippingBlankLinesAndCarriageReturns() {
        assertThat(parser.ndjson(b("{\"a\":1}\r\n\n  \n{\"a\":2}\n"))).hasSize(2);
        assertThat(parser.ndjson(b("{\"a\":1}"))).hasSize(1);
    }

    @Test
    void refusesMalformedJsonWith400() {
        HttpProblem p = problem(() -> parser.jsonArray(b("[{\"a\":")));
        assertThat(p.status()).isEqualTo(400);
        assertThat(p.type()).isEqualTo("malformed-json");
    }

    @Test
    void namesTheBadNdjsonLine() {
        HttpProblem p = problem(() -> parser.ndjson(b("{}\n\n{oops}\n")));
        assertThat(p.status()).isEqualTo(400);
        assertThat(p.detail()).isEqualTo("line 3 is not valid JSON");
    }

    @Test
    void refusesAnObjectWhereAnArrayIsExpected() {
        assertThat(problem(() -> parser.jsonArray(b("{\"a\":1}"))).type()).isEqualTo("not-a-batch");
    }

    @Test
    void refusesEmptyBatches() {
        assertThat(problem(() -> parser.jsonArray(b("[]"))).type()).isEqualTo("empty-batch");
        assertThat(problem(() -> parser.ndjson(b("\n\n"))).type()).isEqualTo("empty-batch");
        assertThat(problem(() -> parser.jsonArray(b(""))).status()).isEqualTo(400);
    }

    @Test
    void refusesMoreEventsThanAllowedWith413() {
        assertThat(problem(() -> parser.jsonArray(b("[1,2,3,4]"))).status()).isEqualTo(413);
        assertThat(problem(() -> parser.ndjson(b("1\n2\n3\n4\n"))).type()).isEqualTo("too-many-events");
        assertThat(parser.ndjson(b("1\n2\n3\n"))).hasSize(3);
    }

    @Test
    void refusesDeepNestingAsMalformedNotAsACrash() {
        for (String open : new String[] {"[", "{\"a\":"}) {
            for (int depth : new int[] {65, 407, 5000}) {
                HttpProblem p = problem(() -> parser.jsonArray(b(open.repeat(depth))));
                assertThat(p.status()).isEqualTo(400);
                p = problem(() -> parser.ndjson(b(open.repeat(depth))));
                assertThat(p.status()).isEqualTo(400);
            }
        }
    }

    @Test
    void refusesInvalidUtf8AndGarbage() {
        assertThat(problem(() -> parser.jsonArray(new byte[] {'[', '"', (byte) 0xC3, (byte) 0x28, '"', ']'}))
                        .status())
                .isEqualTo(400);
        assertThat(problem(() -> parser.jsonArray(new byte[] {0, 1, 2, (byte) 0xff}))
                        .status())
                .isEqualTo(400);
    }
}
