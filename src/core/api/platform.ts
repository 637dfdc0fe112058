/** The owner's shell: what GET /api/admin/shell answers for the top bar, the sidebar and every screen's dates. */
export interface AdminShellInfo {
  siteTitle: string;
  email: string;
  displayName: string;
  role: number;
  websiteId: string;
  /** The shop's language and region (a BCP 47 tag such as en-GB): /config writes dates the shop's way. */
  locale: string;
  /** The shop's IANA time zone: /config shows times as the shop's clock reads them. */
  timeZone: string;
}
