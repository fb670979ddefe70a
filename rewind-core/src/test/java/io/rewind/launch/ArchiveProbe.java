package io.rewind.launch;

/** A JVM's whole program for the class-data archive test: one line, then a clean exit. */
public final class ArchiveProbe {
    private ArchiveProbe() {}

    public static void main(String[] args) {
        System.out.println("probe ran");
    }
}
