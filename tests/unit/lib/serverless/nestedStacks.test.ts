import { describe, expect, it } from 'vitest'
import {
  type CloudFormationTemplate,
  splitIntoNestedStacks,
} from '../../../../lib/serverless/nestedStacks'

// A function with what osls and the deploy rules give it, a route to it, and what is shared.
function template(): CloudFormationTemplate {
  return {
    Resources: {
      Table: { Type: 'AWS::DynamoDB::Table', Properties: {} },
      HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: {} },
      HttpApiStage: {
        Type: 'AWS::ApiGatewayV2::Stage',
        Properties: { ApiId: { Ref: 'HttpApi' } },
        DependsOn: ['HttpApiRouteGetNonce'],
      },
      GetNonceLogGroup: { Type: 'AWS::Logs::LogGroup', Properties: {} },
      GetNonceLambdaRole: {
        Type: 'AWS::IAM::Role',
        Properties: {
          Resource: { 'Fn::GetAtt': ['Table', 'Arn'] },
          Arn: { 'Fn::Sub': 'arn:${AWS::Partition}:logs' },
        },
      },
      GetNonceLambdaFunction: {
        Type: 'AWS::Lambda::Function',
        Properties: { Role: { 'Fn::GetAtt': ['GetNonceLambdaRole', 'Arn'] } },
        DependsOn: ['GetNonceLogGroup'],
      },
      HttpApiIntegrationGetNonce: {
        Type: 'AWS::ApiGatewayV2::Integration',
        Properties: {
          ApiId: { Ref: 'HttpApi' },
          IntegrationUri: { Ref: 'GetNonceLambdaFunction' },
        },
      },
      HttpApiRouteGetNonce: {
        Type: 'AWS::ApiGatewayV2::Route',
        Properties: {
          ApiId: { Ref: 'HttpApi' },
          Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegrationGetNonce' }]] },
        },
      },
      // Refers to one function: goes with it.
      GetNonceFailureAlarm: {
        Type: 'AWS::CloudWatch::Alarm',
        Properties: { Dimension: { Ref: 'GetNonceLambdaFunction' }, Stage: { Ref: 'HttpApi' } },
      },
      ListTradesLambdaFunction: { Type: 'AWS::Lambda::Function', Properties: {} },
      // Refers to functions of two stacks: stays in the root, which reads them from their stacks.
      LatencyAlarm: {
        Type: 'AWS::CloudWatch::Alarm',
        Properties: {
          Dimensions: [{ Ref: 'GetNonceLambdaFunction' }, { Ref: 'ListTradesLambdaFunction' }],
        },
      },
    },
    Outputs: { GetNonceArn: { Value: { 'Fn::GetAtt': ['GetNonceLambdaFunction', 'Arn'] } } },
  }
}

describe('splitIntoNestedStacks', () => {
  const { root, nested } = splitIntoNestedStacks(template(), {
    stackOfFunction: {
      GetNonceLambdaFunction: 'AuthStack',
      ListTradesLambdaFunction: 'TradesStack',
    },
    templateUrl: (fileName) => `https://bucket/${fileName}`,
  })
  const auth = nested.AuthStack?.template as CloudFormationTemplate

  it('moves a function with what is its alone and leaves the shared in the root', () => {
    expect(Object.keys(auth.Resources).sort()).toEqual([
      'GetNonceFailureAlarm',
      'GetNonceLambdaFunction',
      'GetNonceLambdaRole',
      'GetNonceLogGroup',
      'HttpApiIntegrationGetNonce',
      'HttpApiRouteGetNonce',
    ])
    expect(Object.keys(root.Resources).sort()).toEqual([
      'AuthStack',
      'HttpApi',
      'HttpApiStage',
      'LatencyAlarm',
      'Table',
      'TradesStack',
    ])
  })

  it('passes root resources as parameters, and pseudo parameters not at all', () => {
    expect(auth.Parameters).toEqual({ TableArn: { Type: 'String' }, HttpApi: { Type: 'String' } })
    expect(root.Resources.AuthStack?.Properties).toEqual({
      Parameters: { TableArn: { 'Fn::GetAtt': ['Table', 'Arn'] }, HttpApi: { Ref: 'HttpApi' } },
      TemplateURL: 'https://bucket/cloudformation-template-nested-AuthStack.json',
    })
    expect(auth.Resources.GetNonceLambdaRole?.Properties).toEqual({
      Resource: { Ref: 'TableArn' },
      Arn: { 'Fn::Sub': 'arn:${AWS::Partition}:logs' },
    })
    expect(auth.Resources.GetNonceLambdaFunction?.DependsOn).toEqual(['GetNonceLogGroup'])
  })

  it('reads nested resources from outputs, and waits on the stack that holds them', () => {
    expect(root.Resources.LatencyAlarm?.Properties.Dimensions).toEqual([
      { 'Fn::GetAtt': ['AuthStack', 'Outputs.GetNonceLambdaFunction'] },
      { 'Fn::GetAtt': ['TradesStack', 'Outputs.ListTradesLambdaFunction'] },
    ])
    expect(root.Outputs?.GetNonceArn?.Value).toEqual({
      'Fn::GetAtt': ['AuthStack', 'Outputs.GetNonceLambdaFunctionArn'],
    })
    expect(auth.Outputs).toEqual({
      GetNonceLambdaFunction: { Value: { Ref: 'GetNonceLambdaFunction' } },
      GetNonceLambdaFunctionArn: { Value: { 'Fn::GetAtt': ['GetNonceLambdaFunction', 'Arn'] } },
    })
    expect(root.Resources.HttpApiStage?.DependsOn).toEqual(['AuthStack'])
  })

  it('refuses a reference from one nested stack into another', () => {
    const crossing = template()
    // The route's integration is GetNonce's; another stack's function may not call on it.
    crossing.Resources.OtherLambdaFunction = {
      Type: 'AWS::Lambda::Function',
      Properties: { Target: { Ref: 'HttpApiIntegrationGetNonce' } },
    }
    expect(() =>
      splitIntoNestedStacks(crossing, {
        stackOfFunction: {
          GetNonceLambdaFunction: 'AuthStack',
          ListTradesLambdaFunction: 'TradesStack',
          OtherLambdaFunction: 'OtherStack',
        },
        templateUrl: (fileName) => fileName,
      }),
    ).toThrow(
      /OtherLambdaFunction \(stack OtherStack\) refers to HttpApiIntegrationGetNonce of stack AuthStack/,
    )
  })
})
