package io.rewind.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of the JVMs a job starts (agents and rank processes): this JVM's own {@code java}
 * and class path, native and Unsafe memory access allowed (the payload log and Netty use them), and
 * the options of the class-data-sharing archive ({@link ClassDataArchive}).
 */
final class JvmCommand {
    private JvmCommand() {}

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String classPath() {
        return System.getProperty("java.class.path");
    }

    /**
     * {@code java [options] -cp CLASSPATH MAIN} for {@code main}, with {@code archiveOptions} (see
     * {@link ClassDataArchive}) among the options.
     */
    static List<String> of(String java, String classPath, Class<?> main, List<String> archiveOptions) {
        return of(java, classPath, main, archiveOptions, List.of());
    }

    /**
     * The same, with the user's {@code jvmOptions} after Rewind's own (a later {@code -XX} or {@code
     * -Xlog} wins) and before the class path.
     */
    static List<String> of(
            String java, String classPath, Class<?> main, List<String> archiveOptions, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("--sun-misc-unsafe-memory-access=allow");
        // The JVM's own warnings go to standard error: standard output is the program's, and is compared
        // line by line with a failure-free run's.
        cmd.add("-Xlog:disable");
        cmd.add("-Xlog:all=warning:stderr");
        // The performance-data file stays (no -XX:-UsePerfData): jps, jcmd and Mission Control find a
        // JVM by it, so a rank process can be looked at while the job runs.
        // A JVM's crash report goes to the temporary folder, not the folder the job was started from
        // (the JVM names the file on standard error, which reaches the launcher's output).
        cmd.add("-XX:ErrorFile=" + Path.of(System.getProperty("java.io.tmpdir"), "rewind-hs_err_pid%p.log"));
        cmd.addAll(archiveOptions);
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        return cmd;
    }
}
