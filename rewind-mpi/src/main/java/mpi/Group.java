package mpi;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/** An ordered set of processes, held as world ranks; local operations only. */
public class Group implements Freeable {
    /** World ranks in group rank order; null once freed. */
    private int[] members;

    Group(int[] worldRanks) {
        this.members = worldRanks;
    }

    int[] members() throws MPIException {
        if (members == null) {
            throw Failures.error(MPI.ERR_GROUP, "the group is null or was freed");
        }
        return members;
    }

    private static int indexOf(int[] group, int worldRank) {
        for (int i = 0; i < group.length; i++) {
            if (group[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    public int getSize() throws MPIException {
        MPI.check();
        return members().length;
    }

    /** This process's rank in the group, or {@code MPI.UNDEFINED} if it is not a member. */
    public int getRank() throws MPIException {
        MPI.check();
        return indexOf(members(), MPI.engine().worldRank());
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        members = null;
    }

    public boolean isNull() {
        return members == null;
    }

    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        MPI.check();
        int[] g1 = group1.members();
        int[] g2 = group2.members();
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            if (r < 0 || r >= g1.length) {
                throw Failures.error(MPI.ERR_RANK, "rank " + r + " is not in a group of size " + g1.length);
            }
            out[i] = indexOf(g2, g1[r]);
        }
        return out;
    }

    /** {@code MPI.IDENT} (same members, same order), {@code MPI.SIMILAR} (same members) or {@code MPI.UNEQUAL}. */
    public static int compare(Group group1, Group group2) throws MPIException {
        MPI.check();
        return compareMembers(group1.members(), group2.members());
    }

    static int compareMembers(int[] a, int[] b) {
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        if (a.length != b.length) {
            return MPI.UNEQUAL;
        }
        int[] x = a.clone();
        int[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    public static Group union(Group group1, Group group2) throws MPIException {
        MPI.check();
        Set<Integer> s = new LinkedHashSet<>();
        for (int r : group1.members()) {
            s.add(r);
        }
        for (int r : group2.members()) {
            s.add(r);
        }
        return new Group(s.stream().mapToInt(Integer::intValue).toArray());
    }

    public static Group intersection(Group group1, Group group2) throws MPIException {
        MPI.check();
        int[] g2 = group2.members();
        return new Group(Arrays.stream(group1.members())
                .filter(r -> indexOf(g2, r) != MPI.UNDEFINED)
                .toArray());
    }

    public static Group difference(Group group1, Group group2) throws MPIException {
        MPI.check();
        int[] g2 = group2.members();
        return new Group(Arrays.stream(group1.members())
                .filter(r -> indexOf(g2, r) == MPI.UNDEFINED)
                .toArray());
    }

    public Group incl(int[] ranks) throws MPIException {
        MPI.check();
        int[] g = members();
        checkDistinctRanks(ranks, g.length);
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = g[ranks[i]];
        }
        return new Group(out);
    }

    public Group excl(int[] ranks) throws MPIException {
        MPI.check();
        int[] g = members();
        checkDistinctRanks(ranks, g.length);
        boolean[] drop = new boolean[g.length];
        for (int r : ranks) {
            drop[r] = true;
        }
        int[] out = new int[g.length - ranks.length];
        int k = 0;
        for (int i = 0; i < g.length; i++) {
            if (!drop[i]) {
                out[k++] = g[i];
            }
        }
        return new Group(out);
    }

    public Group rangeIncl(int[][] ranges) throws MPIException {
        return incl(expand(ranges));
    }

    public Group rangeExcl(int[][] ranges) throws MPIException {
        return excl(expand(ranges));
    }

    private static int[] expand(int[][] ranges) throws MPIException {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int[] t : ranges) {
            if (t.length != 3 || t[2] == 0) {
                throw Failures.error(MPI.ERR_ARG, "a range is (first, last, non-zero stride)");
            }
            if (t[2] > 0) {
                for (int r = t[0]; r <= t[1]; r += t[2]) {
                    out.add(r);
                }
            } else {
                for (int r = t[0]; r >= t[1]; r += t[2]) {
                    out.add(r);
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void checkDistinctRanks(int[] ranks, int size) throws MPIException {
        boolean[] seen = new boolean[size];
        for (int r : ranks) {
            if (r < 0 || r >= size) {
                throw Failures.error(MPI.ERR_RANK, "rank " + r + " is not in a group of size " + size);
            }
            if (seen[r]) {
                throw Failures.error(MPI.ERR_RANK, "rank " + r + " listed twice");
            }
            seen[r] = true;
        }
    }

    @Override
    public String toString() {
        return members == null ? "MPI_GROUP_NULL" : "Group" + Arrays.toString(members);
    }
}
