import { companySearch } from '../../../operations/company-search.ts';
import { answerRoute } from '../../answer-route.ts';

/** POST /company-search: a company's profile from the company store (1 credit when found). */
export default answerRoute('company-search', companySearch);
