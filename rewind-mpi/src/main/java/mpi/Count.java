package mpi;

/** A count that may exceed an {@code int} ({@code MPI_Count}), as the {@code X} status calls take and return. */
public final class Count implements Comparable<Object> {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count other && other.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    /** Compares with another {@code Count}, as Open MPI's (whose {@code Comparable} is untyped) does. */
    @Override
    public int compareTo(Object other) {
        return Long.compare(count, ((Count) other).count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
