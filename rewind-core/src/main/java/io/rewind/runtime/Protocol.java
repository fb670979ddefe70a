package io.rewind.runtime;

/** The fault-tolerance protocols a job can run with. */
public enum Protocol {
    /** No fault tolerance: a crash aborts the job. */
    NONE,
    /** Coordinated checkpoints; every rank rolls back on any failure. */
    GLOBAL,
    /** Checkpoints plus pessimistic sender-based message logging; only the crashed rank rolls back. */
    PESSIMISTIC;

    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
