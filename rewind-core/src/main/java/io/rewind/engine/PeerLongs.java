package io.rewind.engine;

import java.util.Arrays;

/**
 * One long per peer rank, stored in pages of {@value #PAGE} that are allocated at their first write
 * of a value other than the default. A rank keeps several such tables (sequence numbers per peer,
 * traffic per destination, incarnations per peer); as dense arrays sized by the job, 4096 rank
 * threads of one JVM held over a gigabyte of them, almost all defaults, since a rank talks to few
 * peers. A page costs 512 bytes, the table one reference per page until written.
 *
 * <p>Not thread-safe: each owner guards its table as it guarded the array before.
 */
public final class PeerLongs {
    private static final int PAGE_BITS = 6;
    static final int PAGE = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE - 1;

    private final int size;
    private final long defaultValue;
    private final long[][] pages;

    /** A table of {@code size} zeros. */
    public PeerLongs(int size) {
        this(size, 0L);
    }

    /** A table of {@code size} entries that read {@code defaultValue} until written. */
    public PeerLongs(int size, long defaultValue) {
        if (size < 0) {
            throw new IllegalArgumentException("size " + size);
        }
        this.size = size;
        this.defaultValue = defaultValue;
        this.pages = new long[(size + PAGE_MASK) >>> PAGE_BITS][];
    }

    public int size() {
        return size;
    }

    public long get(int i) {
        long[] page = pages[checked(i) >>> PAGE_BITS];
        return page == null ? defaultValue : page[i & PAGE_MASK];
    }

    public void set(int i, long value) {
        long[] page = pages[checked(i) >>> PAGE_BITS];
        if (page == null) {
            if (value == defaultValue) {
                return;
            }
            page = newPage(i);
        }
        page[i & PAGE_MASK] = value;
    }

    /** Adds {@code delta} to entry {@code i} and returns the new value. */
    public long add(int i, long delta) {
        long[] page = pages[checked(i) >>> PAGE_BITS];
        if (page == null) {
            page = newPage(i);
        }
        return page[i & PAGE_MASK] += delta;
    }

    /** Raises entry {@code i} to {@code value} if it is lower. */
    public void raise(int i, long value) {
        if (value > get(i)) {
            set(i, value);
        }
    }

    /** The sum of the entries. */
    public long sum() {
        long sum = 0;
        for (int p = 0; p < pages.length; p++) {
            long[] page = pages[p];
            int n = Math.min(PAGE, size - (p << PAGE_BITS));
            if (page == null) {
                sum += n * defaultValue;
            } else {
                for (int i = 0; i < n; i++) {
                    sum += page[i];
                }
            }
        }
        return sum;
    }

    /** The entries as a dense array (a snapshot, for reports and checkpoints). */
    public long[] toArray() {
        long[] out = new long[size];
        if (defaultValue != 0) {
            Arrays.fill(out, defaultValue);
        }
        for (int p = 0; p < pages.length; p++) {
            if (pages[p] != null) {
                int from = p << PAGE_BITS;
                System.arraycopy(pages[p], 0, out, from, Math.min(PAGE, size - from));
            }
        }
        return out;
    }

    /** Sets every entry from a dense array of the same size. */
    public void setAll(long[] values) {
        if (values.length != size) {
            throw new IllegalArgumentException("a table of " + size + " set from " + values.length + " values");
        }
        for (int i = 0; i < size; i++) {
            set(i, values[i]);
        }
    }

    /** How many pages are allocated (for tests and the memory figures). */
    int allocatedPages() {
        int n = 0;
        for (long[] page : pages) {
            if (page != null) {
                n++;
            }
        }
        return n;
    }

    private long[] newPage(int i) {
        long[] page = new long[PAGE];
        if (defaultValue != 0) {
            Arrays.fill(page, defaultValue);
        }
        pages[i >>> PAGE_BITS] = page;
        return page;
    }

    private int checked(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("peer " + i + " of a table of " + size);
        }
        return i;
    }
}
