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

    /** The counts so far, for a rank process to report to its launcher. */
    public synchronized Sent snapshot() {
        return new Sent(p2pBytes.toArray(), p2pMessages.toArray(), collBytes.toArray(), collMessages.toArray());
    }

    /**
     * What one rank sent to each rank, as {@link TrafficCounters#snapshot()} took it.
     *
     * @param p2pBytes      point-to-point payload bytes, by destination world rank
     * @param p2pMessages   point-to-point messages, by destination
     * @param collBytes     payload bytes sent inside collectives, by destination
     * @param collMessages  messages sent inside collectives, by destination
     */
    public record Sent(long[] p2pBytes, long[] p2pMessages, long[] collBytes, long[] collMessages)
            implements java.io.Serializable {
        /**
         * Adds these counts to row {@code source} of a job's matrices (a restarted rank's totals span
         * its lives): the collective ones if {@code collective}, else the point-to-point ones.
         */
        public void addTo(PeerLongs[] bytes, PeerLongs[] messages, boolean collective, int source) {
            long[] b = collective ? collBytes : p2pBytes;
            long[] m = collective ? collMessages : p2pMessages;
            for (int d = 0; d < b.length && d < bytes[source].size(); d++) {
                if (b[d] != 0 || m[d] != 0) {
                    bytes[source].add(d, b[d]);
                    messages[source].add(d, m[d]);
                }
            }
        }
    }
}
