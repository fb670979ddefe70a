package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What follows a {@code java} word, read as the java launcher reads it. */
class JavaCommandTest {
    @TempDir
    Path dir;

    @Test
    void jvmOptionsThenClassPathThenMainThenArguments() {
        JavaCommand j = JavaCommand.parse(List.of(
                "-Xmx2g",
                "-Dk=v",
                "-XX:+UseG1GC",
                "-ea",
                "--add-opens",
                "java.base/java.lang=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                "a.jar:b",
                "com.example.Main",
                "-x",
                "1"));
        assertEquals(
                List.of(
                        "-Xmx2g",
                        "-Dk=v",
                        "-XX:+UseG1GC",
                        "-ea",
                        "--add-opens=java.base/java.lang=ALL-UNNAMED",
                        "--enable-native-access=ALL-UNNAMED"),
                j.jvmOptions());
        assertEquals("a.jar:b", j.classPath());
        assertEquals("com.example.Main", j.mainClass());
        assertEquals(List.of("-x", "1"), j.args(), "what follows the main class is the program's");
    }

    @Test
    void everySpellingOfTheClassPath() {
        for (List<String> words : List.of(
                List.of("-classpath", "x", "M"), List.of("--class-path", "x", "M"), List.of("--class-path=x", "M"))) {
            JavaCommand j = JavaCommand.parse(words);
            assertEquals("x", j.classPath(), words.toString());
            assertEquals("M", j.mainClass(), words.toString());
        }
        assertNull(JavaCommand.parse(List.of("M")).classPath());
    }

    @Test
    void aJarsMainClassComesFromItsManifest() throws IOException {
        Path jar = jar("app.jar", "com.example.App");
        JavaCommand j = JavaCommand.parse(List.of("-Xmx1g", "-jar", jar.toString(), "in.txt"));
        assertEquals("com.example.App", j.mainClass());
        assertEquals(jar.toString(), j.classPath());
        assertEquals(List.of("-Xmx1g"), j.jvmOptions());
        assertEquals(List.of("in.txt"), j.args());
    }

    @Test
    void whatCannotRunOnTheRanksIsRefusedInOneLine() throws IOException {
        Path noMain = jar("lib.jar", null);
        String[][] cases = {
            {"-jar", noMain.toString()},
            {"-jar", dir.resolve("missing.jar").toString()},
            {"-cp", "x"},
            {"-cp"},
            {"-m", "mod/com.example.Main"},
            {"-version"},
            {"Main.java"}
        };
        String[] why = {
            "names no Main-Class",
            "no such file",
            "needs a main class",
            "-cp needs a value",
            "runs no main class",
            "runs no main class",
            "a source file"
        };
        for (int i = 0; i < cases.length; i++) {
            List<String> words = List.of(cases[i]);
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> JavaCommand.parse(words), words.toString());
            assertTrue(e.getMessage().contains(why[i]), e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        }
    }

    @Test
    void theJavaWordIsJavaOrAPathToIt() {
        assertTrue(JavaCommand.isJava("java"));
        assertTrue(JavaCommand.isJava("/usr/lib/jvm/jdk/bin/java"));
        assertTrue(!JavaCommand.isJava("com.example.java"));
        assertTrue(!JavaCommand.isJava("javac"));
    }

    private Path jar(String name, String mainClass) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream j = new JarOutputStream(out, m)) {
            j.flush();
        }
        return jar;
    }
}
