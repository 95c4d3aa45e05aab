package dev.vigil.notifier.channel.betterstack;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.betterstack.OnCallReach.Medium;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.FakeVendor.Reply;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The incident's call, sms, email, push and critical_alert flags follow the page's severity. */
class BetterStackReachTest {
    private final FakeVendor vendor = new FakeVendor();
    private final HttpSender http = new HttpSender("test", 4, Duration.ofSeconds(5));

    @AfterEach
    void close() {
        http.close();
        vendor.close();
    }

    private JsonNode created(OnCallReach reach, Severity severity) {
        vendor.requests.clear();
        vendor.respond(r -> Reply.json(201, "{\"data\":{\"id\":\"1\",\"type\":\"incident\"}}"));
        BetterStackNotifier bs = new BetterStackNotifier(vendor.uri("/"), "tok", http, Clock.systemUTC(), reach);
        assertThat(bs.send(new Notification(opened("monitor/checkout", severity), "betterstack", null))
                        .block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(201, "1"));
        return Json.tree(vendor.requests.get(0).body().getBytes(StandardCharsets.UTF_8));
    }

    private static Set<String> on(JsonNode body) {
        Set<String> on = new java.util.TreeSet<>();
        for (Medium m : Medium.values()) {
            assertThat(body.has(m.wire()))
                    .as("the body states %s either way", m.wire())
                    .isTrue();
            if (body.path(m.wire()).asBoolean()) {
                on.add(m.wire());
            }
        }
        return on;
    }

    @Test
    void byDefaultACriticalPageRingsThePhoneAndLowerSeveritiesAreQuieter() {
        OnCallReach d = OnCallReach.defaults();
        assertThat(on(created(d, Severity.CRITICAL))).containsExactlyInAnyOrder("call", "sms", "email", "push");
        assertThat(on(created(d, Severity.WARNING))).containsExactlyInAnyOrder("email", "push");
        assertThat(on(created(d, Severity.INFO))).containsExactly("email");
    }

    @Test
    void aConfiguredSeverityReplacesOnlyItsOwnMediums() {
        OnCallReach reach = OnCallReach.defaults()
                .with(Severity.CRITICAL, EnumSet.of(Medium.CALL, Medium.CRITICAL_ALERT))
                .with(Severity.WARNING, Set.of());
        assertThat(on(created(reach, Severity.CRITICAL))).containsExactlyInAnyOrder("call", "critical_alert");
        assertThat(on(created(reach, Severity.WARNING))).isEmpty();
        assertThat(on(created(reach, Severity.INFO))).containsExactly("email");
        assertThat(reach.toString()).isEqualTo("critical=[call, critical_alert], warning=[], info=[email]");
    }
}
