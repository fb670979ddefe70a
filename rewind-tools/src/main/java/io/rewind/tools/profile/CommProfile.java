package io.rewind.tools.profile;

import java.util.Arrays;
import java.util.List;

/**
 * What one run communicated: point-to-point and collective traffic matrices, optional
 * per-rank wall times, and notes gathered while reading (for example self-sends that were
 * set aside).
 *
 * @param ranks           number of ranks (world size)
 * @param p2p             point-to-point traffic
 * @param collective      point-to-point messages exchanged inside collective algorithms
 * @param rankTimeSeconds per-rank elapsed time of the profiled run; {@code NaN} where unknown
 * @param notes           human-readable remarks from the reader (never errors)
 */
public record CommProfile(
        int ranks, CommMatrix p2p, CommMatrix collective, double[] rankTimeSeconds, List<String> notes) {

    public CommProfile {
        if (p2p.ranks() != ranks || collective.ranks() != ranks || rankTimeSeconds.length != ranks) {
            throw new IllegalArgumentException("profile parts disagree on the number of ranks");
        }
        notes = List.copyOf(notes);
    }

    /** A profile with only point-to-point traffic and no timing. */
    public static CommProfile ofP2p(CommMatrix p2p) {
        double[] times = new double[p2p.ranks()];
        Arrays.fill(times, Double.NaN);
        return new CommProfile(p2p.ranks(), p2p, CommMatrix.empty(p2p.ranks()), times, List.of());
    }

    /** The matrix an analysis should use for the given traffic selection. */
    public CommMatrix traffic(Traffic which) {
        return switch (which) {
            case P2P -> p2p;
            case COLLECTIVE -> collective;
            case ALL -> p2p.plus(collective);
        };
    }

    /**
     * Length of the profiled run in seconds: the longest rank time, or {@code NaN} when the
     * profile has no timing. Growth rates (bytes per second) need it.
     */
    public double durationSeconds() {
        double max = Double.NaN;
        for (double t : rankTimeSeconds) {
            if (!Double.isNaN(t) && (Double.isNaN(max) || t > max)) {
                max = t;
            }
        }
        return max;
    }
}
