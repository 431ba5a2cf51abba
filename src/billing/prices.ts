// What each operation costs, in millicredits (spec part 8.2, decisions.md).
export const PRICES = {
  emailValidationCharged: 50,
  companyFundingFound: 4000,
  jobsFinderPerJob: 1000,
  roleFinderFound: 2000,
  profileEmailFound: 5000,
  mobileFinderFound: 5000,
} as const;
