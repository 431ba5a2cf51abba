import { companyTechnographics } from '../../../operations/technographics.ts';
import { answerRoute } from '../../answer-route.ts';

export default answerRoute('technographics', companyTechnographics);
