package io.rewind.cli;

import picocli.CommandLine;

/** Reports the version from the jar manifest (or "development" when run from classes). */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = RewindCommand.class.getPackage().getImplementationVersion();
        return new String[] {"rewind " + (v != null ? v : "development") + " (Java " + Runtime.version() + ")"};
    }
}
