package io.rewind.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * One node agent per host of a hostfile, started with {@code remoteShell HOST COMMAND} (such as {@code
 * ssh -F FILE}): {@code --launch ssh}. Java and Rewind must be at the same paths on every host.
 */
public record SshLaunch(List<String> remoteShell) implements LaunchMode {
    public SshLaunch {
        remoteShell = List.copyOf(remoteShell);
        if (remoteShell.isEmpty()) {
            throw new IllegalArgumentException("an ssh launch needs a remote shell command");
        }
    }

    @Override
    public String name() {
        return "ssh";
    }

    @Override
    public boolean onThisHost() {
        return false;
    }

    @Override
    public List<String> onNode(String host, List<String> command, String name) {
        List<String> cmd = new ArrayList<>(remoteShell);
        cmd.add(host);
        cmd.add(RemoteCommand.quote(command));
        return cmd;
    }
}
