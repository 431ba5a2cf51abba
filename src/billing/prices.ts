// What each operation costs, in millicredits (docs/contract.md, Endpoints and Charges).
export const PRICES = {
  emailValidationCharged: 50,
  companyFundingFound: 4000,
  jobsFinderPerJob: 1000,
  roleFinderFound: 2000,
  profileEmailFound: 5000,
  mobileFinderFound: 5000,
  emailFinderFound: 1000,
} as const;
