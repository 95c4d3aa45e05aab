package dev.vigil.notifier.config;

import dev.vigil.kit.config.Problems;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code digest} section checked against the routing's channels: the digest goes to slack or email channels
 * only (a digest channel would record the digest into itself, a log channel is not read by people), and a routing
 * with digest channels needs a digest to send what they record.
 */
final class DigestSettings {
    static final Set<ChannelType> SENDS_TO = EnumSet.of(ChannelType.SLACK, ChannelType.EMAIL);

    private DigestSettings() {}

    static void check(NotifierConfig.Digest digest, Map<String, ResolvedChannel> channels, String routing, Problems p) {
        List<String> names = digest.channels();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String key = "digest.channels[" + i + "]";
            ResolvedChannel c = name == null ? null : channels.get(name);
            if (c == null) {
                p.add(
                        key,
                        "unknown channel '" + name + "'; the channels of " + routing + " are "
                                + new java.util.TreeSet<>(channels.keySet()));
            } else if (!SENDS_TO.contains(c.type())) {
                p.add(
                        key,
                        "channel '" + name + "' is of type " + c.type().wire()
                                + "; the digest is sent to slack or email channels");
            } else if (names.indexOf(name) != i) {
                p.add(key, "channel '" + name + "' is named twice");
            }
        }
        if (!digest.enabled()) {
            for (ResolvedChannel c : channels.values()) {
                if (c.type() == ChannelType.DIGEST) {
                    p.add(
                            "digest.channels",
                            "channel '" + c.name() + "' of " + routing + " records events for the"
                                    + " daily digest, but no digest is configured; name the channels it goes to, e.g."
                                    + " digest: { at: \"09:00\", zone: Europe/Berlin, channels: [slack] }");
                    break;
                }
            }
        }
    }
}
