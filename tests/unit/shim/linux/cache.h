/* SPDX-License-Identifier: GPL-2.0 */
#include "../kshim.h"
