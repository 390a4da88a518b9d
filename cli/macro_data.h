/* The embedded US macroeconomic quarterly series (data/macrodata.csv),
 * generated at build time by cli/embed_csv.cmake (COLS = 14) into
 * macro_data.c. */
#ifndef QRU_CLI_MACRO_DATA_H
#define QRU_CLI_MACRO_DATA_H

extern const int qru_macro_count;    /* quarters (rows) */
extern const int qru_macro_cols;     /* 14: year, quarter, 12 series */
extern const double qru_macro_data[]; /* row i at [i * cols, i * cols + cols) */

#endif
