/** The software named in every `warcinfo` record and WACZ datapackage. */
export const FORAGE_SOFTWARE = "Forage/0.1 (warcio.js 2.4)";
