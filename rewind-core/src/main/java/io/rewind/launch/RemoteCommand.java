package io.rewind.launch;

import java.util.List;

/** A command line as one string for a remote shell (ssh joins its arguments and the far side parses them). */
final class RemoteCommand {
    private RemoteCommand() {}

    /** {@code exec 'arg' 'arg' ...}, each argument in single quotes (a quote inside as {@code '\''}). */
    static String quote(List<String> command) {
        StringBuilder b = new StringBuilder("exec");
        for (String arg : command) {
            b.append(" '").append(arg.replace("'", "'\\''")).append('\'');
        }
        return b.toString();
    }
}
