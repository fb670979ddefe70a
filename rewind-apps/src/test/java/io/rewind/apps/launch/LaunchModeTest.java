package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.launch.Launch;
import io.rewind.launch.LaunchMode;
import io.rewind.launch.LaunchModes;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A way of launching that Rewind does not ship, added as one class: the launcher places and starts
 * its node agents through it and asks nothing else of it, and a job of rank processes runs, loses a
 * rank and recovers as it does under the modes Rewind ships.
 */
@Tag("process")
class LaunchModeTest {
    /** Every rank reduces, then prints its sum. */
    public static final class Reduces {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int rank = MPI.COMM_WORLD.getRank();
            long sum = 0;
            for (int it = 0; it < 200; it++) {
                long[] v = {rank * 1000L + it};
                MPI.COMM_WORLD.allReduce(v, 1, MPI.LONG, MPI.SUM);
                sum = sum * 7 + v[0];
            }
            System.out.println("rank " + rank + " sum " + sum);
            MPI.Finalize();
        }
    }

    /**
     * Agents on this machine, each started through {@code env} with a variable naming the mode (as a
     * container runtime or another batch system would wrap the command), every command written down.
     */
    static final class ThroughEnv implements LaunchMode {
        final List<List<String>> started = Collections.synchronizedList(new ArrayList<>());

        @Override
        public String name() {
            return "through-env";
        }

        @Override
        public boolean onThisHost() {
            return true;
        }

        @Override
        public List<String> onNode(String host, List<String> command, String name) {
            List<String> cmd = new ArrayList<>(List.of("env", "REWIND_LAUNCHED_BY=" + name() + ":" + host));
            cmd.addAll(command);
            started.add(cmd);
            return cmd;
        }
    }

    /**
     * Registers {@link ThroughEnv} by name, as {@code --launch through-env} finds it: a line naming this
     * class in {@code META-INF/services/io.rewind.launch.LaunchModes$Provider} of the test resources.
     * {@link #last} is the mode of the launch it made last.
     */
    public static final class ThroughEnvProvider implements LaunchModes.Provider {
        static volatile ThroughEnv last;

        @Override
        public String name() {
            return "through-env";
        }

        @Override
        public Launch launch(LaunchModes.Options options) {
            List<Launch.Node> nodes = new ArrayList<>();
            for (int i = 0; i < options.nodes(); i++) {
                nodes.add(new Launch.Node("n" + i, 0));
            }
            last = new ThroughEnv();
            return Launch.of(last, nodes);
        }
    }

    @Test
    void aModeRegisteredByItsProviderIsFoundByNameAndRunsAJob() {
        assertEquals(List.of("local", "ssh", "slurm", "through-env"), LaunchModes.names());
        Launch launch = LaunchModes.launch("through-env", new LaunchModes.Options(2, null, List.of()));
        assertEquals("through-env", launch.mode().name());
        JobConfig c = JobConfig.builder(Reduces.class.getName())
                .ranks(2)
                .timeout(Duration.ofSeconds(120))
                .quiet()
                .build();
        JobResult r = ProcessJob.run(c, launch);
        assertTrue(r.ok(), r.describeFailures());
        assertEquals(2, ThroughEnvProvider.last.started.size(), ThroughEnvProvider.last.started.toString());
        IllegalArgumentException unknown = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> LaunchModes.launch("kubernetes", new LaunchModes.Options(1, null, List.of())));
        assertEquals(
                "unknown --launch kubernetes (expected threads, local, ssh, slurm, through-env)", unknown.getMessage());
    }

    @Test
    void aModeOfOneClassPlacesTheAgentsAndTheJobRecoversUnderIt() {
        JobConfig plain = JobConfig.builder(Reduces.class.getName())
                .ranks(4)
                .timeout(Duration.ofSeconds(120))
                .quiet()
                .build();
        JobResult threads = Job.run(plain);
        assertTrue(threads.ok(), threads.describeFailures());

        ThroughEnv mode = new ThroughEnv();
        List<Launch.Node> nodes = List.of(new Launch.Node("left", 0), new Launch.Node("right", 0));
        JobConfig killed = plain.toBuilder()
                .protocol("pessimistic")
                .failures(FailureSchedule.parse("3@o100", 4))
                .build();
        JobResult r = ProcessJob.run(killed, Launch.of(mode, nodes));
        assertTrue(r.ok(), r.describeFailures());
        assertEquals(1, r.report().failures().size(), r.report().summary());
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(threads.output(rank), r.output(rank), "rank " + rank);
        }
        assertEquals(2, mode.started.size(), "one agent a node: " + mode.started);
        assertTrue(mode.started.get(0).contains("REWIND_LAUNCHED_BY=through-env:left"), mode.started.toString());
        assertTrue(mode.started.get(1).contains("REWIND_LAUNCHED_BY=through-env:right"), mode.started.toString());
    }
}
