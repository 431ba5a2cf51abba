// What each operation costs, in millicredits (docs/contract.md, Endpoints and Charges).
export const PRICES = {
  emailValidationCharged: 50,
  companyFundingFound: 4000,
  jobsFinderPerJob: 1000,
  roleFinderFound: 2000,
  profileEmailFound: 5000,
  mobileFinderFound: 5000,
  emailFinderFound: 1000,
  companySearchFound: 1000,
  /** Email to profile: a person and their profile URL from an address. */
  emailToProfileFound: 10000,
  profileSearchFound: 1000,
  personalEmailFound: 2000,
  /** Job change detector: the person and the company are known (any of its three answers). */
  jobChangeChecked: 3000,
  /** Competitors: at least one competitor of the company. */
  competitorsFound: 5000,
  /** Technographics: at least one technology named in the company's job listings. */
  technographicsFound: 1000,
  /** People search: per person returned (the employee finder's price). */
  peopleSearchPerPerson: 50,
  /** Employee finder: per employee returned (20 per credit). */
  employeeFinderPerEmployee: 50,
} as const;
