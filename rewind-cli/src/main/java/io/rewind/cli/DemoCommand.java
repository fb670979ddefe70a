package io.rewind.cli;

import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code rewind demo}: the guided tour. */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        description = "Runs the 2-D Jacobi stencil on a few ranks and prints its checksum.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = {"-n", "--np"}, defaultValue = "4", description = "Ranks (default: ${DEFAULT-VALUE}).")
    int ranks;

    @Override
    public Integer call() {
        String main = "io.rewind.apps.examples.Jacobi2D";
        System.out.println("== rewind demo: " + main + " on " + ranks + " ranks");
        JobResult r = Job.run(JobConfig.builder(main).ranks(ranks).args("256", "400")
                .timeout(Duration.ofMinutes(5)).build());
        System.out.println("== job " + (r.ok() ? "completed" : "FAILED") + " in " + r.wallTime().toMillis() + " ms");
        if (!r.ok()) {
            System.err.print(r.describeFailures());
        }
        return r.exitCode();
    }
}
