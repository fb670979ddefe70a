package io.rewind.launch;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The command lines of the processes a launcher starts: {@code --name value} pairs, all required. */
final class Args {
    private Args() {}

    static Map<String, String> parse(String[] args, String... required) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            m.put(args[i], args[i + 1]);
        }
        for (String r : required) {
            if (!m.containsKey(r)) {
                throw new IllegalArgumentException("missing " + r + " (got " + List.of(args) + ")");
            }
        }
        return m;
    }

    /** {@code host:port}. */
    static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not host:port: " + hostPort);
        }
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }
}
