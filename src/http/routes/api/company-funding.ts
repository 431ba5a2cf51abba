import { companyFunding } from '../../../operations/company-funding.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('company-funding', companyFunding);
