package io.rewind.launch;

import java.util.List;

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
    public List<String> onNode(String host, List<String> command, String name) {
        return command;
    }
}
