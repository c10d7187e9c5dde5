/* SPDX-License-Identifier: GPL-2.0 */
/* rbsim: the results table, as the guest benchmark prints it, or CSV. */
#ifndef RBSIM_REPORT_H
#define RBSIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sim.h"

void report_header(FILE *f, const struct sim_config *cfg,
		   const double leg_mibps[SIM_MAX_LEGS], double limit,
		   bool csv);
void report_row(FILE *f, const struct sim_config *cfg, const char *policy,
		const struct sim_result *r, double limit, bool csv);

#endif
