package dev.vigil.kit.auth;

import java.util.Set;

/**
 * Who is calling: a configured token's name and scopes. {@code instance} marks the credential Vigil's own instances
 * use to forward a query to the owner of a key; only such a caller may say a request was already forwarded.
 */
public record Principal(String name, Set<Scope> scopes, boolean instance) {
    public Principal {
        scopes = Set.copyOf(scopes);
    }

    public boolean may(Scope needed) {
        return scopes.contains(Scope.ADMIN) || scopes.contains(needed);
    }
}
