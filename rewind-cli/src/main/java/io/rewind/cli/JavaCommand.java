package io.rewind.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * What follows the word {@code java} on a command line, read as the {@code java} launcher reads it:
 * JVM options, then {@code -cp CLASSPATH MAIN} or {@code -jar JAR} (the main class from the jar's
 * manifest), then the program's arguments. {@code rewind mpirun} reads its program this way, and
 * {@code rewind run} a stray {@code java} before the main class.
 *
 * @param jvmOptions the options for the ranks' JVMs, in order ({@code -Xmx2g}, {@code -Dk=v}, {@code
 *                   --add-opens M/P=ALL-UNNAMED} as two words joined by a space ...)
 * @param classPath  {@code -cp}'s value, the jar of {@code -jar}, or null if neither was given
 * @param mainClass  the main class
 * @param args       the program's arguments
 */
record JavaCommand(List<String> jvmOptions, String classPath, String mainClass, List<String> args) {
    /** JVM options whose value is the next word ({@code --add-opens java.base/java.lang=ALL-UNNAMED}). */
    private static final Set<String> WITH_VALUE = Set.of(
            "--add-opens",
            "--add-exports",
            "--add-reads",
            "--add-modules",
            "--limit-modules",
            "--patch-module",
            "--upgrade-module-path",
            "--module-path",
            "-p",
            "--enable-native-access");

    /** Options of the {@code java} launcher that start something other than a main class. */
    private static final Set<String> NOT_A_PROGRAM = Set.of(
            "-m",
            "--module",
            "-version",
            "--version",
            "-showversion",
            "--show-version",
            "-help",
            "--help",
            "-h",
            "-?",
            "--dry-run",
            "--source");

    /** Whether {@code word} is the {@code java} launcher: {@code java}, or a path ending in {@code /java}. */
    static boolean isJava(String word) {
        return word.equals("java") || word.endsWith("/java");
    }

    /**
     * Reads {@code words} (what follows {@code java}); an {@link IllegalArgumentException} with a
     * one-line reason for what cannot run as a rank's program.
     */
    static JavaCommand parse(List<String> words) {
        List<String> options = new ArrayList<>();
        String classPath = null;
        int i = 0;
        while (i < words.size() && words.get(i).startsWith("-")) {
            String w = words.get(i);
            if (w.equals("-cp") || w.equals("-classpath") || w.equals("--class-path")) {
                classPath = valueOf(words, i, w);
                i += 2;
            } else if (w.startsWith("--class-path=")) {
                classPath = w.substring("--class-path=".length());
                i++;
            } else if (w.equals("-jar")) {
                String jar = valueOf(words, i, w);
                return new JavaCommand(
                        options, jar, mainClassOf(Path.of(jar)), List.copyOf(words.subList(i + 2, words.size())));
            } else if (NOT_A_PROGRAM.contains(w) || w.startsWith("--module=")) {
                throw new IllegalArgumentException(
                        "java " + w + " runs no main class on the ranks: give -cp CLASSPATH MAIN_CLASS or -jar JAR");
            } else if (WITH_VALUE.contains(w)) {
                options.add(w + "=" + valueOf(words, i, w));
                i += 2;
            } else {
                options.add(w);
                i++;
            }
        }
        if (i == words.size()) {
            throw new IllegalArgumentException(
                    "java needs a main class: java [JVM options] -cp CLASSPATH MAIN_CLASS [ARGS] or java -jar JAR [ARGS]");
        }
        String main = words.get(i);
        if (main.endsWith(".java")) {
            throw new IllegalArgumentException("a source file (" + main
                    + ") cannot run on the ranks: compile it and give -cp CLASSPATH MAIN_CLASS");
        }
        return new JavaCommand(options, classPath, main, List.copyOf(words.subList(i + 1, words.size())));
    }

    private static String valueOf(List<String> words, int i, String option) {
        if (i + 1 >= words.size()) {
            throw new IllegalArgumentException("java " + option + " needs a value");
        }
        return words.get(i + 1);
    }

    /** The {@code Main-Class} of a jar's manifest, as {@code java -jar} finds it. */
    static String mainClassOf(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("java -jar " + jar + ": no such file");
        }
        try (JarFile f = new JarFile(jar.toFile())) {
            String main = f.getManifest() == null
                    ? null
                    : f.getManifest().getMainAttributes().getValue("Main-Class");
            if (main == null || main.isBlank()) {
                throw new IllegalArgumentException("java -jar " + jar
                        + ": the jar's manifest names no Main-Class: give -cp " + jar + " MAIN_CLASS");
            }
            return main.trim();
        } catch (IOException e) {
            throw new IllegalArgumentException("java -jar " + jar + ": not a jar (" + e.getMessage() + ")");
        }
    }
}
