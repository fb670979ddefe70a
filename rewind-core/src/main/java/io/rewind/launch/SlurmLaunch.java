package io.rewind.launch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * One node agent per node of the Slurm allocation the launcher runs in, all started by one {@code
 * srun} (each agent finds its node's name itself): {@code --launch slurm}.
 */
public record SlurmLaunch() implements LaunchMode {
    @Override
    public String name() {
        return "slurm";
    }

    @Override
    public boolean onThisHost() {
        return false;
    }

    @Override
    public List<Process> startAgents(
            List<Launch.Node> nodes, Function<String, List<String>> agentCommand, ProcessStarter starter)
            throws IOException {
        int k = nodes.size();
        List<String> cmd = new ArrayList<>(List.of(
                "srun",
                "--nodes=" + k,
                "--ntasks=" + k,
                "--ntasks-per-node=1",
                "--input=all",
                "--kill-on-bad-exit=0",
                "--job-name=rewind-agents"));
        cmd.addAll(agentCommand.apply("slurm"));
        return Collections.nCopies(k, starter.start(cmd));
    }

    /** A step of its own on that node, sharing the node with the agents' step. */
    @Override
    public List<String> onNode(String host, List<String> command, String name) {
        List<String> srun = new ArrayList<>(List.of(
                "srun",
                "--nodes=1",
                "--ntasks=1",
                "--overlap",
                "--nodelist=" + host,
                "--input=all",
                "--kill-on-bad-exit=0",
                "--job-name=" + name));
        srun.addAll(command);
        return srun;
    }
}
