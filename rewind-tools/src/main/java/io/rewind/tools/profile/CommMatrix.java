package io.rewind.tools.profile;

import java.util.Arrays;

/**
 * A sparse directed traffic matrix between {@code ranks} ranks: for each ordered pair
 * (source, destination) with traffic, the bytes and the number of messages.
 *
 * <p>Stored row-compressed (one sorted run of destinations per source) because real
 * profiles are sparse: a 16,384-rank stencil has a few hundred thousand channels, not
 * 268 million cells. The diagonal is never stored; self-sends are kept apart in
 * {@link #selfBytes(int)} so that tools can report them while analyses ignore them
 * (a rank never logs or replays a message to itself).
 */
public final class CommMatrix {

    private final int ranks;
    private final int[] rowStart;
    private final int[] destination;
    private final long[] bytes;
    private final long[] messages;
    private final long[] selfBytes;
    private final long[] selfMessages;

    CommMatrix(
            int ranks,
            int[] rowStart,
            int[] destination,
            long[] bytes,
            long[] messages,
            long[] selfBytes,
            long[] selfMessages) {
        this.ranks = ranks;
        this.rowStart = rowStart;
        this.destination = destination;
        this.bytes = bytes;
        this.messages = messages;
        this.selfBytes = selfBytes;
        this.selfMessages = selfMessages;
    }

    /** An empty matrix over {@code ranks} ranks. */
    public static CommMatrix empty(int ranks) {
        return new Builder(ranks).build();
    }

    public int ranks() {
        return ranks;
    }

    /** Number of ordered pairs (channels) with traffic, diagonal excluded. */
    public int channelCount() {
        return destination.length;
    }

    /** Index of the first channel of {@code source} in the channel arrays. */
    public int firstChannel(int source) {
        return rowStart[source];
    }

    /** One past the index of the last channel of {@code source}. */
    public int endChannel(int source) {
        return rowStart[source + 1];
    }

    public int destinationOf(int channel) {
        return destination[channel];
    }

    public long bytesOf(int channel) {
        return bytes[channel];
    }

    public long messagesOf(int channel) {
        return messages[channel];
    }

    /** Bytes sent from {@code source} to {@code dest}; 0 when there is no traffic or on the diagonal. */
    public long bytes(int source, int dest) {
        int index = Arrays.binarySearch(destination, rowStart[source], rowStart[source + 1], dest);
        return index >= 0 ? bytes[index] : 0L;
    }

    public long messages(int source, int dest) {
        int index = Arrays.binarySearch(destination, rowStart[source], rowStart[source + 1], dest);
        return index >= 0 ? messages[index] : 0L;
    }

    /** Bytes a rank sent to itself; excluded from every analysis. */
    public long selfBytes(int rank) {
        return selfBytes[rank];
    }

    public long selfMessages(int rank) {
        return selfMessages[rank];
    }

    /** Number of ranks with a non-zero diagonal entry. */
    public int ranksWithSelfSends() {
        int count = 0;
        for (int r = 0; r < ranks; r++) {
            if (selfBytes[r] != 0 || selfMessages[r] != 0) {
                count++;
            }
        }
        return count;
    }

    /** Bytes sent by each rank to other ranks. */
    public long[] bytesSent() {
        long[] sent = new long[ranks];
        for (int r = 0; r < ranks; r++) {
            long sum = 0;
            for (int c = rowStart[r]; c < rowStart[r + 1]; c++) {
                sum += bytes[c];
            }
            sent[r] = sum;
        }
        return sent;
    }

    /** Bytes received by each rank from other ranks. */
    public long[] bytesReceived() {
        long[] received = new long[ranks];
        for (int c = 0; c < destination.length; c++) {
            received[destination[c]] += bytes[c];
        }
        return received;
    }

    public long totalBytes() {
        long sum = 0;
        for (long b : bytes) {
            sum += b;
        }
        return sum;
    }

    public long totalMessages() {
        long sum = 0;
        for (long m : messages) {
            sum += m;
        }
        return sum;
    }

    /** Element-wise sum of two matrices over the same ranks (point-to-point plus collectives). */
    public CommMatrix plus(CommMatrix other) {
        if (other.ranks != ranks) {
            throw new IllegalArgumentException("rank counts differ: " + ranks + " vs " + other.ranks);
        }
        Builder builder = new Builder(ranks);
        for (CommMatrix m : new CommMatrix[] {this, other}) {
            for (int s = 0; s < ranks; s++) {
                for (int c = m.rowStart[s]; c < m.rowStart[s + 1]; c++) {
                    builder.add(s, m.destination[c], m.bytes[c], m.messages[c]);
                }
                if (m.selfBytes[s] != 0 || m.selfMessages[s] != 0) {
                    builder.add(s, s, m.selfBytes[s], m.selfMessages[s]);
                }
            }
        }
        return builder.build();
    }

    /**
     * Accumulates (source, destination, bytes, messages) entries in any order; entries for the
     * same pair are summed. Callers that must reject duplicates check {@link #add}'s result.
     */
    public static final class Builder {
        private final int ranks;
        private long[] keys = new long[1024];
        private long[] entryBytes = new long[1024];
        private long[] entryMessages = new long[1024];
        private int size;
        private final long[] selfBytes;
        private final long[] selfMessages;

        public Builder(int ranks) {
            if (ranks <= 0) {
                throw new IllegalArgumentException("ranks must be positive: " + ranks);
            }
            this.ranks = ranks;
            this.selfBytes = new long[ranks];
            this.selfMessages = new long[ranks];
        }

        public int ranks() {
            return ranks;
        }

        /** Adds traffic; diagonal entries go to the self-send counters. */
        public Builder add(int source, int dest, long nbytes, long nmessages) {
            if (source < 0 || source >= ranks || dest < 0 || dest >= ranks) {
                throw new IllegalArgumentException("rank out of range [0," + ranks + "): " + source + "->" + dest);
            }
            if (nbytes < 0 || nmessages < 0) {
                throw new IllegalArgumentException("negative traffic " + source + "->" + dest);
            }
            if (source == dest) {
                selfBytes[source] += nbytes;
                selfMessages[source] += nmessages;
                return this;
            }
            if (nbytes == 0 && nmessages == 0) {
                return this;
            }
            if (size == keys.length) {
                int capacity = size * 2;
                keys = Arrays.copyOf(keys, capacity);
                entryBytes = Arrays.copyOf(entryBytes, capacity);
                entryMessages = Arrays.copyOf(entryMessages, capacity);
            }
            keys[size] = (long) source * ranks + dest;
            entryBytes[size] = nbytes;
            entryMessages[size] = nmessages;
            size++;
            return this;
        }

        public CommMatrix build() {
            // Sort entry indices by key, then merge equal keys.
            int[] order = sortedOrder();
            int distinct = 0;
            long previous = -1;
            for (int i = 0; i < size; i++) {
                long key = keys[order[i]];
                if (key != previous) {
                    distinct++;
                    previous = key;
                }
            }
            int[] rowStart = new int[ranks + 1];
            int[] destination = new int[distinct];
            long[] bytes = new long[distinct];
            long[] messages = new long[distinct];
            int out = -1;
            previous = -1;
            for (int i = 0; i < size; i++) {
                int e = order[i];
                long key = keys[e];
                if (key != previous) {
                    out++;
                    previous = key;
                    int source = (int) (key / ranks);
                    destination[out] = (int) (key % ranks);
                    rowStart[source + 1]++;
                }
                bytes[out] += entryBytes[e];
                messages[out] += entryMessages[e];
            }
            for (int r = 0; r < ranks; r++) {
                rowStart[r + 1] += rowStart[r];
            }
            return new CommMatrix(
                    ranks, rowStart, destination, bytes, messages, selfBytes.clone(), selfMessages.clone());
        }

        private int[] sortedOrder() {
            // Sort (key, index) pairs packed in one long when they fit, else fall back to boxed sort.
            long[] packed = new long[size];
            boolean fits = (long) ranks * ranks < (1L << 40) && size < (1 << 23);
            if (fits) {
                for (int i = 0; i < size; i++) {
                    packed[i] = (keys[i] << 23) | i;
                }
                Arrays.sort(packed);
                int[] order = new int[size];
                for (int i = 0; i < size; i++) {
                    order[i] = (int) (packed[i] & ((1 << 23) - 1));
                }
                return order;
            }
            Integer[] idx = new Integer[size];
            for (int i = 0; i < size; i++) {
                idx[i] = i;
            }
            Arrays.sort(idx, (a, b) -> Long.compare(keys[a], keys[b]));
            int[] order = new int[size];
            for (int i = 0; i < size; i++) {
                order[i] = idx[i];
            }
            return order;
        }
    }
}
