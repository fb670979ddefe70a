package io.rewind.tools.report;

import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.model.ModelParameters;
import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.Traffic;

/**
 * What a report shows. At least one of {@code profile} and {@code run} is needed.
 *
 * @param title      page title
 * @param profile    communication profile, or null
 * @param traffic    which traffic of the profile to analyse
 * @param clustering clustering for the cluster map and the projected logs, or null without a profile
 * @param run        run record, or null
 * @param model      model parameters for the projection curves, or null to leave the model out (it
 *                   projects a machine the run did not use, so it is drawn only when asked for)
 */
public record ReportInput(
        String title,
        CommProfile profile,
        Traffic traffic,
        Clustering clustering,
        RunRecord run,
        ModelParameters model) {

    public ReportInput {
        if (profile == null && run == null) {
            throw new IllegalArgumentException("a report needs a profile, a run record or both");
        }
        if (profile != null && clustering != null && clustering.ranks() != profile.ranks()) {
            throw new IllegalArgumentException("clustering and profile disagree on the rank count");
        }
        if (profile != null && run != null && run.ranks() != profile.ranks()) {
            throw new IllegalArgumentException("run record has " + run.ranks() + " ranks, profile " + profile.ranks());
        }
    }
}
