package io.rewind.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The command line of the JVMs a job starts (agents and rank processes): this JVM's own {@code java}
 * and class path, native and Unsafe memory access allowed (the payload log and Netty use them), and a
 * class-data-sharing archive kept in the temporary folder per class path, created by the first JVM
 * (one for agents, one for rank processes) and mapped by every later one: a rank process then starts in a fraction of the time, which is what
 * a respawn costs.
 */
final class JvmCommand {
    private JvmCommand() {}

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String classPath() {
        return System.getProperty("java.class.path");
    }

    /** {@code java [options] -cp CLASSPATH MAIN} for {@code main}. */
    static List<String> of(String java, String classPath, Class<?> main) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("--sun-misc-unsafe-memory-access=allow");
        if (onlyJars(classPath)) {
            // The JVM archives classes from jar files only (it refuses a class path with a folder).
            cmd.add("-XX:+AutoCreateSharedArchive");
            cmd.add("-XX:SharedArchiveFile=" + archive(java, classPath, main));
            cmd.add("-Xlog:cds=off");
            cmd.add("-Xlog:cds+dynamic=off");
        }
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        return cmd;
    }

    private static boolean onlyJars(String classPath) {
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            if (!entry.endsWith(".jar") || !java.nio.file.Files.isRegularFile(Path.of(entry))) {
                return false;
            }
        }
        return true;
    }

    /** One archive per kind of process: each holds the classes that kind loads. */
    private static Path archive(String java, String classPath, Class<?> main) {
        String key = java + "\n" + classPath + "\n" + main.getName();
        String hash =
                HexFormat.of().toHexDigits(key.hashCode()) + HexFormat.of().toHexDigits(key.length());
        return Path.of(System.getProperty("java.io.tmpdir"), "rewind-cds-" + hash + ".jsa");
    }
}
