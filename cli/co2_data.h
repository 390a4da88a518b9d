/* The embedded Mauna Loa weekly CO2 series (data/co2.csv), generated at
 * build time by cli/embed_csv.cmake into co2_data.c. */
#ifndef QRU_CLI_CO2_DATA_H
#define QRU_CLI_CO2_DATA_H

extern const int qru_co2_count;   /* number of weeks */
extern const double qru_co2_x[];  /* decimal year of each week */
extern const double qru_co2_y[];  /* CO2 in ppm */

#endif
