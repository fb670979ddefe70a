package io.rewind.tools.profile;

/**
 * Which traffic of a profile an analysis looks at. Point-to-point is the default: Rewind logs
 * collectives once per call at the application level, so the point-to-point messages that
 * collective algorithms exchange do not drive the size of the message log (and the MCML paper
 * ignores them for the same reason: they carry a small share of the data).
 */
public enum Traffic {
    P2P,
    COLLECTIVE,
    ALL
}
