package io.rewind.ft;

import jdk.jfr.FlightRecorder;

/**
 * Whether JFR has started in this JVM, asked before Rewind's events are made. The first event class a
 * JVM loads initializes JFR's machinery, about 400 classes and 140-160 ms of one core, even with no
 * recording: every rank process paid that at its start, beside its peers on the same cores. Until a
 * recording starts (at launch with {@code --jfr} or {@code -XX:StartFlightRecording}, or later with
 * {@code jcmd PID JFR.start}) nothing could record the events anyway, so they are not made.
 */
public final class FlightRecording {
    private FlightRecording() {}

    /** Whether JFR is initialized here: a plain query that initializes nothing. */
    public static boolean started() {
        return FlightRecorder.isInitialized();
    }
}
