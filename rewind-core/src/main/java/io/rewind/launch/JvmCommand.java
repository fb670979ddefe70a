package io.rewind.launch;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
        // The JVM's own warnings go to standard error: standard output is the program's, and is compared
        // line by line with a failure-free run's.
        cmd.add("-Xlog:disable");
        cmd.add("-Xlog:all=warning:stderr");
        // No performance-data file in the temporary folder: one left by a SIGKILLed JVM whose pid a new
        // rank process gets again makes that JVM print a warning.
        cmd.add("-XX:-UsePerfData");
        if (onlyJars(classPath)) {
            // The JVM archives classes from jar files only (it refuses a class path with a folder).
            cmd.add("-XX:+AutoCreateSharedArchive");
            cmd.add("-XX:SharedArchiveFile=" + archive(java, classPath, main));
            cmd.add("-Xlog:cds=off:stderr");
            cmd.add("-Xlog:cds+dynamic=off:stderr");
        }
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        return cmd;
    }

    private static boolean onlyJars(String classPath) {
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.endsWith(".jar") || !Files.isRegularFile(Path.of(entry))) {
                return false;
            }
        }
        return true;
    }

    /**
     * One archive per kind of process: each holds the classes that kind loads. A rebuilt jar gets a new
     * archive: the JVM may crash mapping an archive made from a jar that has changed since (seen with
     * JDK 25.0.3), so the key names every jar's size and time of change too.
     */
    private static Path archive(String java, String classPath, Class<?> main) {
        StringBuilder key = new StringBuilder(java + "\n" + classPath + "\n" + main.getName());
        for (String entry : classPath.split(File.pathSeparator)) {
            File jar = new File(entry);
            key.append('\n').append(jar.length()).append(' ').append(jar.lastModified());
        }
        String hash;
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8));
            hash = HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "rewind-cds-" + hash + ".jsa");
    }
}
