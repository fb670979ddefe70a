package io.rewind.launch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Node agents as processes of this machine, one per pseudo-node: {@code --launch local}. */
public record LocalLaunch() implements LaunchMode {
    @Override
    public String name() {
        return "local";
    }

    @Override
    public boolean onThisHost() {
        return true;
    }

    @Override
    public List<Process> startAgents(
            List<Launch.Node> nodes, Function<String, List<String>> agentCommand, ProcessStarter starter)
            throws IOException {
        List<Process> agents = new ArrayList<>();
        for (Launch.Node n : nodes) {
            agents.add(starter.start(agentCommand.apply(n.name())));
        }
        return agents;
    }

    @Override
    public List<String> onNode(String host, List<String> command, String name) {
        return command;
    }
}
