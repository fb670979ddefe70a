package io.rewind.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The environment for the ranks from {@code -x NAME=VALUE} and {@code -x NAME} (its value here), as Open MPI reads them. */
final class RankEnvironment {
    private RankEnvironment() {}

    static Map<String, String> of(List<String> settings) {
        return of(settings, System.getenv());
    }

    /** {@code settings} read against {@code here}, the launcher's environment. */
    static Map<String, String> of(List<String> settings, Map<String, String> here) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String s : settings) {
            int eq = s.indexOf('=');
            String name = eq < 0 ? s : s.substring(0, eq);
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException(
                        "-x " + s + ": '" + name + "' is not an environment variable's name");
            }
            if (eq >= 0) {
                env.put(name, s.substring(eq + 1));
            } else if (here.containsKey(name)) {
                env.put(name, here.get(name));
            } else {
                throw new IllegalArgumentException("-x " + name + ": " + name
                        + " is not set here, so it has no value to pass on (give -x " + name + "=VALUE)");
            }
        }
        return env;
    }
}
