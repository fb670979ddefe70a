package io.rewind.engine;

/**
 * What one rank sent to each other rank: bytes and messages, point-to-point and collective traffic
 * apart. Counted when a frame leaves (replayed frames are not counted again). Updated under the
 * counters' own lock by whichever thread of the rank sent; read when the rank has ended.
 */
public final class TrafficCounters {
    private final PeerLongs p2pBytes;
    private final PeerLongs p2pMessages;
    private final PeerLongs collBytes;
    private final PeerLongs collMessages;

    TrafficCounters(int worldSize) {
        p2pBytes = new PeerLongs(worldSize);
        p2pMessages = new PeerLongs(worldSize);
        collBytes = new PeerLongs(worldSize);
        collMessages = new PeerLongs(worldSize);
    }

    synchronized void count(int destinationWorld, long bytes, boolean collective) {
        if (collective) {
            collBytes.add(destinationWorld, bytes);
            collMessages.add(destinationWorld, 1);
        } else {
            p2pBytes.add(destinationWorld, bytes);
            p2pMessages.add(destinationWorld, 1);
        }
    }

    /**
     * The counts so far (for a rank process to report to its launcher, for the job's report), of the
     * destinations this rank sent to only.
     */
    public synchronized Sent snapshot() {
        int n = 0;
        for (int d = 0; d < p2pBytes.size(); d++) {
            if (sentTo(d)) {
                n++;
            }
        }
        int[] to = new int[n];
        long[] pb = new long[n];
        long[] pm = new long[n];
        long[] cb = new long[n];
        long[] cm = new long[n];
        int i = 0;
        for (int d = 0; d < p2pBytes.size(); d++) {
            if (sentTo(d)) {
                to[i] = d;
                pb[i] = p2pBytes.get(d);
                pm[i] = p2pMessages.get(d);
                cb[i] = collBytes.get(d);
                cm[i] = collMessages.get(d);
                i++;
            }
        }
        return new Sent(to, pb, pm, cb, cm);
    }

    private boolean sentTo(int d) {
        return p2pMessages.get(d) != 0 || collMessages.get(d) != 0 || p2pBytes.get(d) != 0 || collBytes.get(d) != 0;
    }

    /**
     * What one rank sent to the ranks it sent to, as {@link TrafficCounters#snapshot()} took it: entry
     * {@code i} of every array is about destination {@code destinations[i]}.
     *
     * @param destinations  the world ranks sent to, ascending
     * @param p2pBytes      point-to-point payload bytes
     * @param p2pMessages   point-to-point messages
     * @param collBytes     payload bytes sent inside collectives
     * @param collMessages  messages sent inside collectives
     */
    public record Sent(int[] destinations, long[] p2pBytes, long[] p2pMessages, long[] collBytes, long[] collMessages)
            implements java.io.Serializable {
        /**
         * Adds these counts to row {@code source} of a job's matrices (a restarted rank's totals span
         * its lives): the collective ones if {@code collective}, else the point-to-point ones.
         */
        public void addTo(PeerLongs[] bytes, PeerLongs[] messages, boolean collective, int source) {
            long[] b = collective ? collBytes : p2pBytes;
            long[] m = collective ? collMessages : p2pMessages;
            for (int i = 0; i < destinations.length; i++) {
                int d = destinations[i];
                if (d < bytes[source].size() && (b[i] != 0 || m[i] != 0)) {
                    bytes[source].add(d, b[i]);
                    messages[source].add(d, m[i]);
                }
            }
        }
    }
}
