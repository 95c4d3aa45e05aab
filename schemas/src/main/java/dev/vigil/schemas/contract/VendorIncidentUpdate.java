package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.util.regex.Pattern;

/**
 * A person acted on an incident in a vendor's tool: the value of {@code vigil.vendor-updates}, keyed by
 * {@code vendor/vendorIncidentId}. Ingest writes it from the vendor's outgoing webhook (authenticated and validated
 * there); the notifier, which holds the mapping from the vendor's incident ids to Vigil's incidents, turns it into a
 * Vigil acknowledgement. A person resolving in the vendor's tool acknowledges in Vigil: Vigil still decides the
 * resolution from its own checks.
 *
 * @param by who acted, as the vendor reports it, only when it is a plain name (an e-mail address or a phone number
 *           is dropped at ingest: it would reach every channel and the audit log); null when unknown or dropped
 * @param at when the person acted (the vendor's time, epoch ms)
 */
public record VendorIncidentUpdate(
        Integer schemaVersion,
        String vendor,
        String vendorIncidentId,
        Action action,
        String by,
        Long at,
        Long receivedAt) {
    /** Vendor incident ids: JSON:API ids and the like, never free text. */
    public static final Pattern VENDOR_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    public VendorIncidentUpdate {
        schemaVersion = schemaVersion == null ? 1 : Require.schemaVersion(schemaVersion);
        Require.slug("vendor", vendor);
        Require.matches("vendorIncidentId", vendorIncidentId, VENDOR_ID, "the vendor's incident id ([A-Za-z0-9._:-])");
        Require.present("action", action);
        Require.optionalText("by", by, 100);
        Require.atLeast("at", Require.present("at", at), 0);
        Require.atLeast("receivedAt", Require.present("receivedAt", receivedAt), 0);
    }

    /** The record key: one vendor incident's updates stay in order on one partition. */
    public String key() {
        return vendor + "/" + vendorIncidentId;
    }

    /** What the person did. */
    public enum Action implements WireEnum {
        ACKNOWLEDGED,
        RESOLVED;

        @JsonCreator
        public static Action fromWire(String value) {
            return WireEnum.parse(Action.class, value);
        }

        @Override
        public String toString() {
            return wire();
        }
    }
}
