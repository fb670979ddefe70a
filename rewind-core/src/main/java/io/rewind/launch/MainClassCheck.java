package io.rewind.launch;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Whether a job's main class can be found, asked once before any rank starts: a class that is not
 * there would otherwise fail every rank with the same {@link ClassNotFoundException}. It looks where
 * a rank's class loader looks ({@link io.rewind.runtime.rank.RankClassLoader}): the job's class path,
 * then the launcher's own (where the examples shipped with Rewind are). Only the class file is looked
 * for: nothing is loaded or initialised.
 */
public final class MainClassCheck {
    private MainClassCheck() {}

    /**
     * Why {@code mainClass} cannot run from {@code classPath} (then the launcher's own), in one line
     * naming where it looked and what may be wrong; empty if its class file is there.
     */
    public static Optional<String> problem(String mainClass, List<Path> classPath, ClassLoader launcher) {
        if (mainClass.endsWith(".class") || mainClass.contains("/")) {
            return Optional.of("the main class is a class name such as com.example.Main, not a file: " + mainClass);
        }
        String file = mainClass.replace('.', '/') + ".class";
        URL[] urls = new URL[classPath.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = classPath.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                return Optional.of("not a class path entry: " + classPath.get(i));
            }
        }
        try (URLClassLoader job = new URLClassLoader(urls, null)) {
            if (job.findResource(file) != null || launcher.getResource(file) != null) {
                return Optional.empty();
            }
        } catch (java.io.IOException e) {
            // closing a loader that read jars: nothing to do about it here
        }
        String searched = classPath.isEmpty()
                ? "Rewind's own class path (no -cp given)"
                : classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        String hint = mainClass.equals("java")
                ? "'java' is not needed before the class: write -cp CLASSPATH MAIN_CLASS"
                : "-cp CLASSPATH names the jars and folders of the program's classes";
        return Optional.of("main class " + mainClass + " not found in " + searched + " (" + hint + ")");
    }
}
