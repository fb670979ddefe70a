package io.rewind.apps.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every workload's checksum at one, two and several rank counts against a sequential computation
 * written here, in one thread, from the problem's definition (or against a known value). Where
 * rounding depends on the rank count the comparison has a tolerance; otherwise it is bit for bit.
 */
class WorkloadChecksumTest {

    /** Runs a workload without failures and returns rank 0's result line as key=value pairs. */
    static Map<String, String> run(Class<?> main, int ranks, String prefix, String... args) {
        JobResult r = Job.run(JobConfig.builder(main.getName())
                .ranks(ranks)
                .args(args)
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build());
        assertTrue(r.ok(), main.getSimpleName() + " on " + ranks + " ranks failed:\n" + r.describeFailures());
        for (String line : r.output(0)) {
            if (line.startsWith(prefix + " ")) {
                Map<String, String> kv = new HashMap<>();
                for (String token : line.split(" ")) {
                    int eq = token.indexOf('=');
                    if (eq > 0) {
                        kv.put(token.substring(0, eq), token.substring(eq + 1));
                    }
                }
                return kv;
            }
        }
        throw new AssertionError("no '" + prefix + "' line in rank 0's output: " + r.output(0));
    }

    static void assertClose(double expected, double actual, double relative, String what) {
        assertTrue(
                Math.abs(expected - actual) <= relative * Math.abs(expected),
                what + ": expected " + expected + " but was " + actual);
    }

    // ---- 1. 3-D stencil -------------------------------------------------------------------------

    static double stencil3dSequential(int n, int sweeps) {
        int plane = n * n;
        double[] p = new double[n * plane];
        double[] q = new double[n * plane];
        for (int s = 0; s < sweeps; s++) {
            for (int z = 1; z < n - 1; z++) {
                for (int y = 1; y < n - 1; y++) {
                    for (int x = 1; x < n - 1; x++) {
                        int i = z * plane + y * n + x;
                        q[i] = (p[i - 1]
                                        + p[i + 1]
                                        + p[i - n]
                                        + p[i + n]
                                        + p[i - plane]
                                        + p[i + plane]
                                        + Stencil3D.SOURCE)
                                / 6.0;
                    }
                }
            }
            double[] t = p;
            p = q;
            q = t;
        }
        double total = 0;
        for (int z = 0; z < n; z++) {
            double s = 0;
            for (int i = 0; i < plane; i++) {
                s += p[z * plane + i];
            }
            total += s;
        }
        return total;
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void stencil3dMatchesTheSequentialSolveBitForBit(int ranks) {
        double expected = stencil3dSequential(14, 12);
        Map<String, String> kv = run(Stencil3D.class, ranks, "stencil3d", "14", "12");
        assertEquals(String.format("%016x", Double.doubleToLongBits(expected)), kv.get("bits"));
    }

    // ---- 2. conjugate gradient ------------------------------------------------------------------

    static double cgSequential(int n, int edgesPerRow, int iterations, long seed) {
        List<List<double[]>> rows = new ArrayList<>();
        double[] diag = new double[n];
        for (int i = 0; i < n; i++) {
            rows.add(new ArrayList<>());
        }
        ConjugateGradient.forEachEdge(n, edgesPerRow, seed, (i, j, w) -> {
            diag[i] += w;
            diag[j] += w;
            rows.get(i).add(new double[] {j, -w});
            rows.get(j).add(new double[] {i, -w});
        });
        double[] x = new double[n];
        double[] r = new double[n];
        double[] p = new double[n];
        double[] q = new double[n];
        for (int i = 0; i < n; i++) {
            r[i] = ConjugateGradient.rhs(i);
            p[i] = r[i];
        }
        double rho = dotSeq(r, r);
        for (int it = 0; it < iterations; it++) {
            for (int i = 0; i < n; i++) {
                double s = (ConjugateGradient.SHIFT + diag[i]) * p[i];
                for (double[] e : rows.get(i)) {
                    s += e[1] * p[(int) e[0]];
                }
                q[i] = s;
            }
            double alpha = rho / dotSeq(p, q);
            for (int i = 0; i < n; i++) {
                x[i] += alpha * p[i];
                r[i] -= alpha * q[i];
            }
            double rhoNew = dotSeq(r, r);
            for (int i = 0; i < n; i++) {
                p[i] = r[i] + rhoNew / rho * p[i];
            }
            rho = rhoNew;
        }
        return Arrays.stream(x).sum();
    }

    static double dotSeq(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4, 6})
    void conjugateGradientMatchesTheSequentialSolve(int ranks) {
        double expected = cgSequential(600, 5, 15, 7);
        Map<String, String> kv = run(ConjugateGradient.class, ranks, "cg", "600", "5", "15", "7");
        assertClose(expected, Double.parseDouble(kv.get("xsum")), 1e-10, "sum of x");
    }

    // ---- 3. implicit heat conduction ------------------------------------------------------------

    static double[] heatSequential(int nx, int ny, int steps, int maxCg) {
        int cells = nx * ny;
        double[] u = new double[cells];
        for (int y = 0; y < ny; y++) {
            for (int x = 0; x < nx; x++) {
                u[y * nx + x] = HeatCG.initial(nx, ny, y, x);
            }
        }
        double[] x = new double[cells];
        double[] r = new double[cells];
        double[] p = new double[cells];
        double[] w = new double[cells];
        for (int s = 0; s < steps; s++) {
            System.arraycopy(u, 0, x, 0, cells);
            heatApply(u, w, nx, ny);
            for (int i = 0; i < cells; i++) {
                r[i] = u[i] - w[i];
            }
            System.arraycopy(r, 0, p, 0, cells);
            double rho = dotSeq(r, r);
            double stop = HeatCG.TOLERANCE * HeatCG.TOLERANCE * dotSeq(u, u);
            for (int it = 0; it < maxCg && rho > stop; it++) {
                heatApply(p, w, nx, ny);
                double alpha = rho / dotSeq(p, w);
                for (int i = 0; i < cells; i++) {
                    x[i] += alpha * p[i];
                    r[i] -= alpha * w[i];
                }
                double rhoNew = dotSeq(r, r);
                for (int i = 0; i < cells; i++) {
                    p[i] = r[i] + rhoNew / rho * p[i];
                }
                rho = rhoNew;
            }
            System.arraycopy(x, 0, u, 0, cells);
        }
        double total = 0;
        double weighted = 0;
        for (int y = 0; y < ny; y++) {
            for (int xx = 0; xx < nx; xx++) {
                total += u[y * nx + xx];
                weighted += u[y * nx + xx] * HeatCG.weight(nx, y, xx);
            }
        }
        return new double[] {total, weighted};
    }

    static void heatApply(double[] p, double[] w, int nx, int ny) {
        for (int y = 0; y < ny; y++) {
            for (int x = 0; x < nx; x++) {
                int i = y * nx + x;
                double s = 0;
                int degree = 0;
                if (x > 0) {
                    s += p[i - 1];
                    degree++;
                }
                if (x < nx - 1) {
                    s += p[i + 1];
                    degree++;
                }
                if (y > 0) {
                    s += p[i - nx];
                    degree++;
                }
                if (y < ny - 1) {
                    s += p[i + nx];
                    degree++;
                }
                w[i] = p[i] + HeatCG.K * (degree * p[i] - s);
            }
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void heatConservesTheTotalAndMatchesTheSequentialSolve(int ranks) {
        int nx = 24;
        int ny = 20;
        double initial = 0;
        for (int y = 0; y < ny; y++) {
            for (int x = 0; x < nx; x++) {
                initial += HeatCG.initial(nx, ny, y, x);
            }
        }
        double[] expected = heatSequential(nx, ny, 4, 200);
        Map<String, String> kv = run(HeatCG.class, ranks, "heat", "24", "20", "4", "200");
        assertClose(initial, Double.parseDouble(kv.get("total")), 1e-10, "total heat");
        assertClose(expected[1], Double.parseDouble(kv.get("weighted")), 1e-9, "weighted sum");
    }

    // ---- 4. adaptive mesh halo ------------------------------------------------------------------

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5, 8})
    void amrGivesTheSameBitsAsTheSequentialRun(int ranks) {
        String[] args = {"8", "6", "5", "2", "2", "2"};
        Map<String, String> sequential = run(AmrHalo.class, 1, "amr", args);
        Map<String, String> kv = run(AmrHalo.class, ranks, "amr", args);
        assertEquals(sequential.get("bits"), kv.get("bits"));
        assertEquals(sequential.get("max"), kv.get("max"));
    }

    // ---- 5. breadth-first search ----------------------------------------------------------------

    static long bfsSequential(int scale, int edgeFactor, int roots, long seed) {
        int n = 1 << scale;
        List<List<Integer>> adj = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            adj.add(new ArrayList<>());
        }
        int[] degree = new int[n];
        for (long e = 0; e < (long) edgeFactor * n; e++) {
            int[] ft = GraphBfs.edge(scale, seed, e);
            if (ft[0] != ft[1]) {
                adj.get(ft[0]).add(ft[1]);
                adj.get(ft[1]).add(ft[0]);
                degree[ft[0]]++;
                degree[ft[1]]++;
            }
        }
        long checksum = 0;
        for (int k = 0; k < roots; k++) {
            int root = GraphBfs.root(k, n, degree, seed);
            int[] level = new int[n];
            Arrays.fill(level, -1);
            level[root] = 0;
            ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(root));
            long reached = 0;
            long levels = 0;
            while (!queue.isEmpty()) {
                int v = queue.poll();
                reached++;
                levels += level[v];
                for (int w : adj.get(v)) {
                    if (level[w] < 0) {
                        level[w] = level[v] + 1;
                        queue.add(w);
                    }
                }
            }
            checksum = GraphBfs.fold(checksum, reached, levels);
        }
        return checksum;
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void bfsLevelsMatchASequentialSearch(int ranks) {
        long expected = bfsSequential(9, 8, 4, 1);
        Map<String, String> kv = run(GraphBfs.class, ranks, "bfs", "9", "8", "4", "1");
        assertEquals(String.format("%016x", expected), kv.get("checksum"));
    }

    @org.junit.jupiter.api.Test
    void theKroneckerGraphIsSkewed() {
        int scale = 10;
        int[] degree = new int[1 << scale];
        for (long e = 0; e < 8L << scale; e++) {
            int[] ft = GraphBfs.edge(scale, 1, e);
            degree[ft[0]]++;
            degree[ft[1]]++;
        }
        int max = Arrays.stream(degree).max().orElseThrow();
        assertTrue(max > 10 * 16, "a Kronecker graph has hubs far above the mean degree 16, max " + max);
    }

    // ---- 6. data-dependent discovery ------------------------------------------------------------

    static long discoverySequential(int size, int iterations, int maxContacts, long seed) {
        long[] acc = new long[size];
        for (int r = 0; r < size; r++) {
            acc[r] = Discovery.initial(r);
        }
        for (int it = 0; it < iterations; it++) {
            long[] gained = new long[size];
            for (int r = 0; r < size; r++) {
                long req = Discovery.request(acc[r], it, r);
                for (int t : Discovery.contacts(acc[r], it, r, size, maxContacts, seed)) {
                    gained[t] += req;
                    gained[r] += Discovery.reply(req, t);
                }
            }
            for (int r = 0; r < size; r++) {
                acc[r] += gained[r];
            }
        }
        return Arrays.stream(acc).sum();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void discoveryMatchesASequentialSimulation(int ranks) {
        Map<String, String> kv = run(Discovery.class, ranks, "discovery", "12", "3", "5");
        assertEquals(String.format("%016x", discoverySequential(ranks, 12, 3, 5)), kv.get("checksum"));
    }

    // ---- 7. Monte Carlo transport ---------------------------------------------------------------

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void monteCarloTalliesMatchOneThreadRunningEveryBatch(int ranks) {
        long[] tally = new long[MonteCarlo.TALLIES];
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 5; j++) {
                MonteCarlo.batch(3, i, j, 300, tally);
            }
        }
        Map<String, String> kv = run(MonteCarlo.class, ranks, "montecarlo", "6", "5", "300", "3");
        assertEquals(String.format("%016x", MonteCarlo.digest(tally)), kv.get("checksum"));
        assertEquals(6 * 5 * 300, Arrays.stream(tally).sum());
    }

    // ---- 8. master-worker -----------------------------------------------------------------------

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void masterWorkerTotalIsTheSumOfAllTasks(int ranks) {
        int workers = Math.max(1, ranks - 1);
        long expected = 0;
        for (long t = 0; t < 10L * workers; t++) {
            expected += MasterWorker.taskValue(t, 50);
        }
        Map<String, String> kv = run(MasterWorker.class, ranks, "masterworker", "10", "50");
        assertEquals(Long.toString(expected), kv.get("result"));
    }
}
