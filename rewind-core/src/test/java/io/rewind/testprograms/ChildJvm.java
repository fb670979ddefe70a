package io.rewind.testprograms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** A real JVM started on this test's class path, for tests that kill a process with SIGKILL. */
public record ChildJvm(Process process, String firstLine) {

    /**
     * Starts {@code main} with {@code args} and waits for the first line it prints (its sign that it is
     * ready), standard error merged in.
     */
    public static ChildJvm start(Class<?> main, String... args) throws IOException {
        String[] command = new String[4 + args.length];
        command[0] = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        command[1] = "-cp";
        command[2] = System.getProperty("java.class.path");
        command[3] = main.getName();
        System.arraycopy(args, 0, command, 4, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        return new ChildJvm(p, out.readLine());
    }
}
