package dev.vigil.kit.trace;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** W3C trace context carried in Kafka record headers: one header per field, its value UTF-8, replaced not added. */
final class KafkaHeaders {
    static final TextMapGetter<Headers> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers headers) {
            List<String> keys = new ArrayList<>();
            for (Header h : headers) {
                keys.add(h.key());
            }
            return keys;
        }

        @Override
        public String get(Headers headers, String key) {
            if (headers == null) {
                return null;
            }
            Header last = headers.lastHeader(key);
            return last == null || last.value() == null ? null : new String(last.value(), StandardCharsets.UTF_8);
        }
    };

    static final TextMapSetter<Headers> SETTER = (headers, key, value) -> {
        if (headers != null) {
            headers.remove(key);
            headers.add(key, value.getBytes(StandardCharsets.UTF_8));
        }
    };

    private KafkaHeaders() {}
}
