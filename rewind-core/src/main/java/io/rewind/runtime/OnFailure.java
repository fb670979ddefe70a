package io.rewind.runtime;

import java.util.Locale;

/** What a job does when a rank fails: one of the two ways to meet a failure. */
public enum OnFailure {
    /** The runtime recovers the rank (its protocol's way); the program never learns of it. */
    RECOVER,
    /**
     * The survivors are told (ULFM's semantics: "process failed", revoke, shrink, agree, replace) and
     * the program recovers itself; no rank rolls back.
     */
    NOTIFY;

    /** The name on the command line. */
    public String option() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode named {@code text} (case-insensitive). */
    public static OnFailure parse(String text) {
        for (OnFailure f : values()) {
            if (f.option().equalsIgnoreCase(text.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("'" + text + "': --on-failure is recover or notify");
    }
}
