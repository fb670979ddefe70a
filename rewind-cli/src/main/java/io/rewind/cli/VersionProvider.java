package io.rewind.cli;

import picocli.CommandLine;

/**
 * Reports the version from the jar manifest (the project's version), or "development" when run from
 * the classes of a build tree rather than the jar.
 */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = RewindCommand.class.getPackage().getImplementationVersion();
        return new String[] {"rewind " + (v != null ? v : "development") + " (Java " + Runtime.version() + ")"};
    }
}
